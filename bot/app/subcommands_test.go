package app

import (
	"slices"
	"testing"
)

// A command's subcommands name only its own options, every option but
// the subcommand's own is offered by some subcommand, and /tournament's
// subcommands are its actions.
func TestSubcommandsCoverTheOptions(t *testing.T) {
	for _, c := range routerFor(newBot(Config{}, nil, nil, nil, nil)).Table() {
		if len(c.Subs) == 0 {
			continue
		}
		if _, ok := c.Opt(SubcommandOption); !ok {
			t.Errorf("/%s: subcommands without the %q option the console writes", c.Name, SubcommandOption)
		}
		used := map[string]bool{}
		var names []string
		for _, s := range c.Subs {
			names = append(names, s.Name)
			for _, o := range s.Opts {
				if _, ok := c.Opt(o); !ok || o == SubcommandOption {
					t.Errorf("/%s %s: option %q is not one of the command's", c.Name, s.Name, o)
				}
				used[o] = true
			}
		}
		for _, o := range c.Opts {
			if o.Name != SubcommandOption && !used[o.Name] {
				t.Errorf("/%s: option %q in no subcommand", c.Name, o.Name)
			}
		}
		if c.Name == "tournament" && !slices.Equal(names, TournamentActionNames) {
			t.Errorf("/tournament subcommands %v, actions %v", names, TournamentActionNames)
		}
	}
	b := newBot(Config{}, nil, nil, nil, nil)
	for _, s := range b.Commands() {
		if len(s.Subcommands) > 0 && len(s.Options) > 0 {
			t.Errorf("/%s: both options and subcommands", s.Name)
		}
		if s.Name == "tournament" && len(s.Subcommands) != len(TournamentActionNames) {
			t.Errorf("/tournament: %d subcommands", len(s.Subcommands))
		}
	}
}
