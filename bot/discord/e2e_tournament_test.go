package discord

import (
	"strings"
	"testing"
)

// e2eTournament: alice creates a round-robin, three players join, alice
// starts it, and round 1's game appears by itself in a thread, its first
// board pinging its two players (the third has the bye) with the round's
// deadline; a non-organiser's start and a second join are refused
// ephemerally.
func e2eTournament(t *testing.T, w *world) {
	e := startBot(t, w)
	r := response(t, e.do(e.slash(alice, gameChannel, "tournament", "action", "create", "game", "tank", "format", "round-robin")))
	if flags(r) == 64 || !strings.Contains(text(r), "tournament #1") {
		t.Fatalf("create: %s", text(r))
	}
	for _, u := range []who{alice, bob, carol} {
		if r := response(t, e.do(e.slash(u, gameChannel, "tournament", "action", "join"))); flags(r) == 64 {
			t.Fatalf("%s join refused: %s", u.name, text(r))
		}
	}
	if r := response(t, e.do(e.slash(bob, gameChannel, "tournament", "action", "join"))); flags(r) != 64 || !strings.Contains(text(r), "already") {
		t.Errorf("second join: flags %d %s", flags(r), text(r))
	}
	if r := response(t, e.do(e.slash(bob, gameChannel, "tournament", "action", "start"))); flags(r) != 64 || !strings.Contains(text(r), "organiser") {
		t.Errorf("start by bob: flags %d %s", flags(r), text(r))
	}
	calls := e.do(e.slash(alice, gameChannel, "tournament", "action", "start"))
	if r := response(t, calls); flags(r) == 64 {
		t.Fatalf("start refused: %s", text(r))
	}
	var boards []*call
	for _, c := range publicNew(calls) {
		if len(c.Files) > 0 {
			boards = append(boards, c)
		}
	}
	if len(boards) != 1 {
		t.Fatalf("round 1 of 3 players: %d boards, want 1", len(boards))
	}
	b := boards[0]
	got := mentioned(t, b)
	players := map[string]bool{alice.id: true, bob.id: true, carol.id: true}
	if len(got) != 2 || got[0] == got[1] || !players[got[0]] || !players[got[1]] {
		t.Errorf("the first board pings %v, want two of the three players", got)
	}
	if c, _ := data(b)["content"].(string); !strings.Contains(c, "Tournament #1, round 1") {
		t.Errorf("the first board does not give the round and deadline: %q", c)
	}
	if !strings.Contains(b.Path, "/channels/") || strings.Contains(b.Path, "/"+gameChannel+"/") {
		t.Errorf("the game is not in a thread of its own: %s %s", b.Method, b.Path)
	}
}
