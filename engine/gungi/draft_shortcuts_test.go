package gungi

import (
	"testing"

	"github.com/tankbot/tankbot/engine"
)

// During the draft the side to place is offered "ready:<formation>", which
// plays; once the draft is over nothing is offered.
func TestShortcuts(t *testing.T) {
	p, err := Rules.Start("draft")
	if err != nil {
		t.Fatal(err)
	}
	sc := p.(engine.Shortcuts).Shortcuts()
	if len(sc) != len(Formations) || sc[0].Move != "ready:quick" || sc[0].Key != "gungi.finish-draft" {
		t.Fatalf("shortcuts at the draft's start: %+v", sc)
	}
	m, err := p.ParseMove(sc[0].Move)
	if err != nil {
		t.Fatal(err)
	}
	q, err := p.Play(m)
	if err != nil {
		t.Fatal(err)
	}
	if !q.(*Position).Ready(engine.Black) {
		t.Fatal("Black is not ready after its formation")
	}
	// White finishes too: the draft is over and nothing more is offered.
	m, _ = q.ParseMove("ready:quick")
	r, err := q.Play(m)
	if err != nil {
		t.Fatal(err)
	}
	if r.(*Position).InDraft() || len(r.(engine.Shortcuts).Shortcuts()) != 0 {
		t.Fatalf("after both formations: in draft %v, shortcuts %+v", r.(*Position).InDraft(), r.(engine.Shortcuts).Shortcuts())
	}
}
