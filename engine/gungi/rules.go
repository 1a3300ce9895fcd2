package gungi

import (
	"strings"

	"github.com/tankbot/tankbot/engine"
)

type rules struct{}

// Rules is Gungi.
var Rules engine.Rules = rules{}

func (rules) Name() string { return "gungi" }

// quickGFEN is both sides drafted with the "quick" formation, White to move.
var quickGFEN = func() string {
	p, err := Decode(StartGFEN)
	if err != nil {
		panic("gungi: bad start GFEN: " + err.Error())
	}
	q, err := p.CompleteDraft(engine.Black, "quick")
	if err == nil {
		q, err = q.CompleteDraft(engine.White, "quick")
	}
	if err != nil {
		panic("gungi: the quick formation does not draft: " + err.Error())
	}
	q.number = 1
	return q.Encode()
}()

func (rules) Variants() []engine.Variant {
	return []engine.Variant{
		{Name: "draft", Description: "the real game: an empty board and the alternate draft of the rules, Black placing first", Position: StartGFEN},
		{Name: "quick", Description: "quick start from tankbot's own symmetric formation (the project's design, not part of the rules): both sides ready, White to move", Position: quickGFEN},
	}
}

func (r rules) Start(variant string) (engine.Position, error) {
	if variant == "" {
		variant = "draft"
	}
	var names []string
	for _, v := range r.Variants() {
		if strings.EqualFold(v.Name, variant) {
			return Decode(v.Position)
		}
		names = append(names, v.Name)
	}
	return nil, errorf(CodeUnknownVariant, variant, strings.Join(names, ", "))
}

func (rules) Decode(s string) (engine.Position, error) {
	p, err := Decode(s)
	if err != nil {
		return nil, err
	}
	return p, nil
}
