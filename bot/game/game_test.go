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
	before := *g
	*g, _ = g.SetOffer(DrawOffer, 1)
	if g.Rev != 1 || g.Seq != 0 || g.DrawOffer != 1 || g.Offered(DrawOffer) != 1 || g.Offered(TakebackOffer) != 0 {
		t.Fatalf("offer: rev %d seq %d offer %d", g.Rev, g.Seq, g.DrawOffer)
	}
	m := pos.LegalMoves()[0]
	next, err := pos.Play(m)
	if err != nil {
		t.Fatal(err)
	}
	if before.Rev != 0 || before.DrawOffer != 0 {
		t.Fatalf("a change altered the game it was made on: %+v", before)
	}
	var e Effects
	*g, e = g.Play(tc, t0.Add(3*time.Second), 0, next, pos.FormatMove(m), next.Status())
	if g.Rev != 2 || g.Seq != 1 || g.Ply != 1 || g.Turn != 1 || g.DrawOffer != 0 || g.Moves[0] != 1 || e.Spent != 3*time.Second || !e.Board || e.Ended {
		t.Fatalf("move: %+v effects %+v", g, e)
	}
	if g.Pos != next.Encode() || g.ClockState.ToMove != 1 {
		t.Fatalf("move: position or clock not the engine's: %+v", g)
	}
	*g, e = g.Extend(time.Minute)
	if g.Rev != 3 || g.Seq != 1 || e.Board {
		t.Fatalf("extend: rev %d seq %d", g.Rev, g.Seq)
	}
	*g, e = g.TakeBack(tc, t0.Add(time.Minute), 1, pos, "")
	if !e.Board || g.Rev != 4 || g.Seq != 2 || g.Ply != 0 || g.Turn != 0 || g.Pos != pos.Encode() || g.ClockState.ToMove != 0 {
		t.Fatalf("takeback: %+v", g)
	}
	*g, e = g.Finish(engine.Win(engine.Side(1), engine.ReasonResignation))
	if g.Status != Finished || g.Rev != 5 || g.Result == "" || !e.Ended {
		t.Fatalf("finish: %+v", g)
	}
	*g, e = g.Finish(engine.Drawn(engine.ReasonAgreement))
	if g.Rev != 5 || g.Reason != string(engine.ReasonResignation) || e.Ended {
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

// A flag fall finishes the game with the fallen clock at 0:00; a move that
// ends the game says so in its effects.
func TestGameEnds(t *testing.T) {
	g, tc, pos := newGame(t)
	f, e := g.FlagFall(0, engine.Win(engine.Side(1), engine.ReasonTimeout))
	if !e.Ended || f.Status != Finished || f.ClockState.Left[0] != 0 || f.Rev != g.Rev+1 || f.Seq != g.Seq {
		t.Fatalf("flag fall: %+v %+v", f, e)
	}
	if g.Status != Active || g.ClockState.Left[0] == 0 {
		t.Fatal("the flag fell on the game it was asked of")
	}
	if _, e := f.FlagFall(1, engine.Win(engine.Side(0), engine.ReasonTimeout)); e.Ended {
		t.Fatal("a finished game's flag fell")
	}
	m := pos.LegalMoves()[0]
	next, err := pos.Play(m)
	if err != nil {
		t.Fatal(err)
	}
	o := engine.Win(engine.Side(0), engine.ReasonResignation)
	p, e := g.Play(tc, t0, 0, next, pos.FormatMove(m), o)
	if !e.Ended || e.Outcome != o || p.Status != Finished {
		t.Fatalf("a move that ends the game: %+v", e)
	}
}
