// Package games lists the games tankbot plays by name: the one place a
// new game is added (its engine.Descriptor, one line below).
package games

import (
	"fmt"
	"strings"

	"github.com/tankbot/tankbot/engine"
	"github.com/tankbot/tankbot/engine/camelot"
	"github.com/tankbot/tankbot/engine/gungi"
	"github.com/tankbot/tankbot/engine/tank"
)

// descriptors are every game, in the order the bot lists them (the first
// is the default game).
var descriptors = []engine.Descriptor{
	tank.Descriptor,
	camelot.Descriptor,
	gungi.Descriptor,
}

// Descriptors returns every game's descriptor, in the order the bot lists
// them.
func Descriptors() []engine.Descriptor { return append([]engine.Descriptor(nil), descriptors...) }

// Describe finds a game's descriptor by name (case-insensitive).
func Describe(name string) (engine.Descriptor, bool) {
	for _, d := range descriptors {
		if strings.EqualFold(d.Rules.Name(), strings.TrimSpace(name)) {
			return d, true
		}
	}
	return engine.Descriptor{}, false
}

// All returns every game, in the order the bot lists them.
func All() []engine.Rules {
	out := make([]engine.Rules, len(descriptors))
	for i, d := range descriptors {
		out[i] = d.Rules
	}
	return out
}

// Names lists the game names.
func Names() []string {
	var out []string
	for _, r := range All() {
		out = append(out, r.Name())
	}
	return out
}

// Lookup finds a game by name (case-insensitive).
func Lookup(name string) (engine.Rules, error) {
	for _, r := range All() {
		if strings.EqualFold(r.Name(), strings.TrimSpace(name)) {
			return r, nil
		}
	}
	return nil, fmt.Errorf("unknown game %q (known games: %s)", name, strings.Join(Names(), ", "))
}

// Position reads s as a variant name of r ("basic16"; "" is the default
// variant) or, failing that, as an encoded position.
func Position(r engine.Rules, s string) (engine.Position, error) {
	s = strings.TrimSpace(s)
	vs := r.Variants()
	if s == "" && len(vs) > 0 {
		return r.Start(vs[0].Name)
	}
	for _, v := range vs {
		if strings.EqualFold(v.Name, s) {
			return r.Start(v.Name)
		}
	}
	p, err := r.Decode(s)
	if err != nil {
		if !strings.ContainsAny(s, " /") {
			names := make([]string, len(vs))
			for i, v := range vs {
				names[i] = v.Name
			}
			return nil, fmt.Errorf("%q is neither a %s variant (%s) nor a position: %w", s, r.Name(), strings.Join(names, ", "), err)
		}
		return nil, fmt.Errorf("%s position: %w", r.Name(), err)
	}
	return p, nil
}
