package game

import (
	"testing"
	"time"

	"github.com/tankbot/tankbot/engine"
	"github.com/tankbot/tankbot/engine/games"
	"github.com/tankbot/tankbot/store/clock"
)

var t0 = time.Date(2026, 1, 2, 15, 4, 5, 0, time.UTC)

func newGame(t *testing.T) (*Game, clock.Settings, engine.Position) {
	t.Helper()
	rules, err := games.Lookup("tank")
	if err != nil {
		t.Fatal(err)
	}
	pos, err := rules.Start(rules.Variants()[0].Name)
	if err != nil {
		t.Fatal(err)
	}
	tc, err := clock.ParseSettings("10m+5s")
	if err != nil {
		t.Fatal(err)
	}
	g := &Game{ID: 1, Game: "tank", Pos: pos.Encode(), Start: pos.Encode(), Status: Active, Clock: tc.String(),
		ClockState: clock.Start(tc, t0), White: Player{ID: "a"}, Black: Player{ID: "b"}}
	return g, tc, pos
}

// The invariants: every change advances the revision; a move or a
// takeback also advances the sequence (never back), an offer or a clock
// extension does not; offers lapse with a move.
func TestGameOwnsItsCounters(t *testing.T) {
	g, tc, pos := newGame(t)
	g.SetOffer(&g.DrawOffer, 1)
	if g.Rev != 1 || g.Seq != 0 || g.DrawOffer != 1 {
		t.Fatalf("offer: rev %d seq %d offer %d", g.Rev, g.Seq, g.DrawOffer)
	}
	m := pos.LegalMoves()[0]
	next, err := pos.Play(m)
	if err != nil {
		t.Fatal(err)
	}
	spent := g.Played(tc, t0.Add(3*time.Second), 0, next, pos.FormatMove(m), next.Status())
	if g.Rev != 2 || g.Seq != 1 || g.Ply != 1 || g.Turn != 1 || g.DrawOffer != 0 || g.Moves[0] != 1 || spent != 3*time.Second {
		t.Fatalf("move: %+v spent %v", g, spent)
	}
	if g.Pos != next.Encode() || g.ClockState.ToMove != 1 {
		t.Fatalf("move: position or clock not the engine's: %+v", g)
	}
	g.Extend(time.Minute)
	if g.Rev != 3 || g.Seq != 1 {
		t.Fatalf("extend: rev %d seq %d", g.Rev, g.Seq)
	}
	g.TookBack(tc, t0.Add(time.Minute), 1, pos, "")
	if g.Rev != 4 || g.Seq != 2 || g.Ply != 0 || g.Turn != 0 || g.Pos != pos.Encode() || g.ClockState.ToMove != 0 {
		t.Fatalf("takeback: %+v", g)
	}
	g.Finish(engine.Win(engine.Side(1), engine.ReasonResignation))
	if g.Status != Finished || g.Rev != 5 || g.Result == "" {
		t.Fatalf("finish: %+v", g)
	}
	g.Finish(engine.Drawn(engine.ReasonAgreement))
	if g.Rev != 5 || g.Reason != string(engine.ReasonResignation) {
		t.Fatalf("a finished game ended again: %+v", g)
	}
	if p, err := g.Position(); err != nil || p.Encode() != pos.Encode() {
		t.Fatalf("position: %v", err)
	}
	if s, ok := g.Side("b"); !ok || s != 1 || g.User(1).ID != "b" {
		t.Fatal("side of b")
	}
	if _, ok := g.Side("c"); ok {
		t.Fatal("c plays")
	}
}
