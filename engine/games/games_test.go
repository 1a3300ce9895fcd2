package games

import (
	"strings"
	"testing"
)

func TestLookup(t *testing.T) {
	r, err := Lookup(" Tank ")
	if err != nil || r.Name() != "tank" {
		t.Fatalf("Lookup(tank) = %v, %v", r, err)
	}
	_, err = Lookup("chess")
	if err == nil || !strings.Contains(err.Error(), "known games: tank") {
		t.Errorf("Lookup(chess) error %v", err)
	}
	seen := map[string]bool{}
	for _, g := range All() {
		if seen[g.Name()] {
			t.Errorf("game %s listed twice", g.Name())
		}
		seen[g.Name()] = true
		if len(g.Variants()) == 0 {
			t.Errorf("game %s has no variants", g.Name())
		}
	}
}

func TestPosition(t *testing.T) {
	r, _ := Lookup("tank")
	def, err := Position(r, "")
	if err != nil {
		t.Fatal(err)
	}
	named, err := Position(r, "BASIC16")
	if err != nil || named.Encode() != def.Encode() {
		t.Fatalf("default and basic16 differ: %v", err)
	}
	b20, err := Position(r, "basic20")
	if err != nil {
		t.Fatal(err)
	}
	enc, err := Position(r, b20.Encode())
	if err != nil || enc.Encode() != b20.Encode() {
		t.Fatalf("encoded position: %v", err)
	}
	if _, err := Position(r, "basic99"); err == nil || !strings.Contains(err.Error(), "basic16, basic20") {
		t.Errorf("unknown variant error %v", err)
	}
	if _, err := Position(r, "x/y w"); err == nil || !strings.Contains(err.Error(), "tank position") {
		t.Errorf("bad position error %v", err)
	}
}

// Every example move a descriptor offers is legal at its variant's start,
// and names a variant the game has (what the bot shows must be playable).
func TestDescriptorExamplesLegal(t *testing.T) {
	for _, d := range Descriptors() {
		name := d.Rules.Name()
		if len(d.Examples) == 0 {
			t.Errorf("%s: no example moves", name)
		}
		for variant, moves := range d.Examples {
			start, err := d.Rules.Start(variant)
			if err != nil {
				t.Errorf("%s: example variant %q: %v", name, variant, err)
				continue
			}
			for _, text := range moves {
				m, err := start.ParseMove(text)
				if err == nil {
					_, err = start.Play(m)
				}
				if err != nil {
					t.Errorf("%s %s: example %q is not legal at the start: %v", name, variant, text, err)
				}
			}
		}
		if d.Showcase != "" {
			if _, err := d.Rules.Start(d.Showcase); err != nil {
				t.Errorf("%s: showcase %q: %v", name, d.Showcase, err)
			}
		}
		if d.Example("") == "" {
			t.Errorf("%s: no default example", name)
		}
	}
}
