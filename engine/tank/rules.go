package tank

import (
	"strings"

	"github.com/tankbot/tankbot/engine"
)

// Rules is Tank Chess. It is stateless and safe for concurrent use.
var Rules engine.Rules = rules{}

type rules struct{}

func (rules) Name() string { return "tank" }

func (rules) Variants() []engine.Variant {
	out := make([]engine.Variant, len(maps))
	for i, m := range maps {
		out[i] = engine.Variant{Name: m.name, Description: m.description, Position: m.tfen}
	}
	return out
}

func (rules) Start(variant string) (engine.Position, error) {
	p, err := StartPosition(variant)
	if err != nil {
		return nil, err
	}
	return p, nil
}

func (rules) Decode(s string) (engine.Position, error) {
	p, err := ParseTFEN(s)
	if err != nil {
		return nil, err
	}
	return p, nil
}

// StartPosition returns the start position of a shipped map; "" is the
// default map (basic16).
func StartPosition(name string) (*Position, error) {
	if name == "" {
		name = maps[0].name
	}
	for _, m := range maps {
		if strings.EqualFold(m.name, name) {
			return ParseTFEN(m.tfen)
		}
	}
	names := make([]string, len(maps))
	for i, m := range maps {
		names[i] = m.name
	}
	return nil, engine.Errorf(CodeUnknownMap, Messages[CodeUnknownMap], name, strings.Join(names, ", "))
}

// ValidateStart checks that a custom position can start a game (rules §8);
// the bot calls it for /challenge map:<TFEN>. See ValidateMap.
func (rules) ValidateStart(p engine.Position) error {
	tp, ok := p.(*Position)
	if !ok {
		return engine.Errorf(CodeNotTankMove, "not a Tank Chess position")
	}
	return ValidateMap(tp)
}
