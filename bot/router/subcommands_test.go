package router

import (
	"slices"
	"testing"

	"github.com/tankbot/tankbot/bot/app"
)

// A command's subcommands name only its own options, every option but
// the subcommand's own is offered by some subcommand, and /tournament's
// subcommands are its actions.
func TestSubcommandsCoverTheOptions(t *testing.T) {
	for _, c := range New(app.New(app.Config{}, nil, nil, nil, nil)).Table() {
		if len(c.Subs) == 0 {
			continue
		}
		if _, ok := c.Opt(app.SubcommandOption); !ok {
			t.Errorf("/%s: subcommands without the %q option the console writes", c.Name, app.SubcommandOption)
		}
		used := map[string]bool{}
		var names []string
		for _, s := range c.Subs {
			names = append(names, s.Name)
			for _, o := range s.Opts {
				if _, ok := c.Opt(o); !ok || o == app.SubcommandOption {
					t.Errorf("/%s %s: option %q is not one of the command's", c.Name, s.Name, o)
				}
				used[o] = true
			}
		}
		for _, o := range c.Opts {
			if o.Name != app.SubcommandOption && !used[o.Name] {
				t.Errorf("/%s: option %q in no subcommand", c.Name, o.Name)
			}
		}
		if c.Name == "tournament" && !slices.Equal(names, app.TournamentActionNames) {
			t.Errorf("/tournament subcommands %v, actions %v", names, app.TournamentActionNames)
		}
	}
	for _, s := range New(app.New(app.Config{}, nil, nil, nil, nil)).Commands() {
		if len(s.Subcommands) > 0 && len(s.Options) > 0 {
			t.Errorf("/%s: both options and subcommands", s.Name)
		}
		if s.Name == "tournament" && len(s.Subcommands) != len(app.TournamentActionNames) {
			t.Errorf("/tournament: %d subcommands", len(s.Subcommands))
		}
	}
}
