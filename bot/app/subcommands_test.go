package app

import (
	"slices"
	"testing"
)

// A command's subcommands name only its own options, every option but
// the subcommand's own is offered by some subcommand, and /tournament's
// subcommands are its actions.
func TestSubcommandsCoverTheOptions(t *testing.T) {
	for _, c := range commands {
		if len(c.subs) == 0 {
			continue
		}
		if _, ok := c.opt(SubcommandOption); !ok {
			t.Errorf("/%s: subcommands without the %q option the console writes", c.name, SubcommandOption)
		}
		used := map[string]bool{}
		var names []string
		for _, s := range c.subs {
			names = append(names, s.name)
			for _, o := range s.opts {
				if _, ok := c.opt(o); !ok || o == SubcommandOption {
					t.Errorf("/%s %s: option %q is not one of the command's", c.name, s.name, o)
				}
				used[o] = true
			}
		}
		for _, o := range c.opts {
			if o.name != SubcommandOption && !used[o.name] {
				t.Errorf("/%s: option %q in no subcommand", c.name, o.name)
			}
		}
		if c.name == "tournament" && !slices.Equal(names, tournamentActionNames) {
			t.Errorf("/tournament subcommands %v, actions %v", names, tournamentActionNames)
		}
	}
	b := newBot(Config{}, nil, nil, nil, nil)
	for _, s := range b.Commands() {
		if len(s.Subcommands) > 0 && len(s.Options) > 0 {
			t.Errorf("/%s: both options and subcommands", s.Name)
		}
		if s.Name == "tournament" && len(s.Subcommands) != len(tournamentActionNames) {
			t.Errorf("/tournament: %d subcommands", len(s.Subcommands))
		}
	}
}
