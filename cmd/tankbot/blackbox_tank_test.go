package main

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"
	"time"

	"github.com/tankbot/tankbot/bot/discord/discordtest"
	"github.com/tankbot/tankbot/engine"
	"github.com/tankbot/tankbot/engine/games"
	"github.com/tankbot/tankbot/store/storetest"
)

// tankLine is a complete Tank Chess game from the standard start, the
// same every run: random quiet moves (PCG seed 3) for 16 plies, then the
// first move that ends the game whenever one exists.
func tankLine(t testing.TB) []string {
	t.Helper()
	rules, err := games.Lookup("tank")
	if err != nil {
		t.Fatal(err)
	}
	pos, err := rules.Start("")
	if err != nil {
		t.Fatal(err)
	}
	rng := rand.New(rand.NewPCG(3, 1))
	var line []string
	for n := 0; n < 400 && !pos.Status().Over(); n++ {
		var end engine.Move
		var quiet []engine.Move
		for _, m := range pos.LegalMoves() {
			q, err := pos.Play(m)
			switch {
			case err != nil:
			case q.Status().Over():
				if n >= 16 && end == nil {
					end = m
				}
			default:
				quiet = append(quiet, m)
			}
		}
		pick := end
		if pick == nil {
			pick = quiet[rng.IntN(len(quiet))]
		}
		line = append(line, pos.FormatMove(pick))
		if pos, err = pos.Play(pick); err != nil {
			t.Fatal(err)
		}
	}
	if !pos.Status().Over() {
		t.Fatal("the line does not end")
	}
	return line
}

// TestBlackBoxServeTankChess plays a full Tank Chess game against the
// real binary (`tankbot serve` on loopback) through the fake Discord,
// which delivers signed interactions and follows Discord's answer rules
// (docs/discord.md): every move is exactly one new public message with the
// board that pings the player to move (and stays), the final board pings
// both players, /board and /history are private. On SQLite, and on
// PostgreSQL when one is available.
func TestBlackBoxServeTankChess(t *testing.T) {
	for _, b := range []struct {
		name string
		db   func(testing.TB) string
	}{{"sqlite", storetest.SQLite}, {"postgres", storetest.Postgres}} {
		t.Run(b.name, func(t *testing.T) { playTankServe(t, b.db(t)) })
	}
}

func playTankServe(t *testing.T, db string) {
	w := newBBWorld(t, db)
	p := w.start()
	alice, bob := bbUser{"710000000000000011", "alice"}, bbUser{"710000000000000012", "bob"}
	const channel = "720000000000000011"
	line := tankLine(t)

	// publicIn are the new public messages made in calls from..to.
	publicIn := func(from, to int) []*discordtest.Call {
		var out []*discordtest.Call
		for _, c := range w.f.CallsFrom(from)[:to-from] {
			if c.Status < 300 && c.Created && !c.Ephemeral && !c.Deduped {
				out = append(out, c)
			}
		}
		return out
	}

	// The challenge pings bob alone.
	chFrom, chEv := w.f.Count(), w.slash(alice, channel, "challenge", "opponent", bob, "game", "tank", "color", "white", "thread", false, "clock", "30m")
	cb, err := w.answer(p, chEv)
	if err != nil {
		t.Fatalf("challenge: %v\n%s", err, p.logs.String())
	}
	var chal msg
	if deferred(cb.Payload) { // a busy machine's deferral: the follow-up answers
		chal = w.followUp(t, chFrom, chEv["token"].(string))
	} else {
		if cb.Ephemeral || !cb.Created {
			t.Fatalf("challenge refused or not a new message: %v", cb.Payload)
		}
		chal = msg{id: cb.MsgID, payload: cb.Payload["data"].(map[string]any), call: cb}
	}
	wantPings(t, chal, "the challenge", bob.id)

	// bob accepts: the first board pings both.
	board, gameID, st := w.acceptFirstBoard(t, p, db, channel, chal, alice, bob)

	rules, _ := games.Lookup("tank")
	pos, _ := rules.Start("")
	player := func(s engine.Side) bbUser {
		if s == engine.Black {
			return bob
		}
		return alice
	}
	boards := []string{board.id}
	starts := []int{}
	pinged := 0
	for i, mv := range line {
		mover := player(pos.Turn())
		m, err := pos.ParseMove(mv)
		if err != nil {
			t.Fatalf("move %d %q: %v", i+1, mv, err)
		}
		pos, _ = pos.Play(m)
		from := w.f.Count()
		starts = append(starts, from)
		ev := w.slash(mover, channel, "move", "move", mv)
		cb, err := w.answer(p, ev)
		if err != nil {
			t.Fatalf("move %d %q: %v\n%s", i+1, mv, err, p.logs.String())
		}
		if cb.Ephemeral && !deferred(cb.Payload) {
			// ("thinking…" is ephemeral too: a busy machine's deferral.)
			t.Fatalf("move %d %q refused: %v", i+1, mv, cb.Payload)
		}
		next, ok := w.board(from, ev["token"].(string), channel, eventWait)
		if !ok {
			t.Fatalf("move %d %q: no new public board\n%s", i+1, mv, p.logs.String())
		}
		if !strings.Contains(next.content(), mover.name+" played "+mv) {
			t.Errorf("move %d: the board does not say what was played: %q", i+1, next.content())
		}
		if !w.retired(from, board.id, eventWait) {
			t.Errorf("move %d: the previous board %s kept its buttons", i+1, board.id)
		}
		board = next
		boards = append(boards, board.id)
		// The adapter records the board's id just after sending it; a
		// player moves after seeing it, as here.
		waitBoardRecorded(t, st, gameID, board.id)
		if pos.Status().Over() {
			break
		}
		if to := player(pos.Turn()); to != mover {
			wantPings(t, board, fmt.Sprintf("move %d", i+1), to.id)
			pinged++
		} else {
			wantPings(t, board, fmt.Sprintf("move %d (the mover moves again)", i+1))
		}
	}
	wantPings(t, board, "the final board", alice.id, bob.id)
	checkPNG(t, board, "the final board")
	if !strings.Contains(board.text(), "wins") {
		t.Errorf("the final board does not state the result: %q", board.text())
	}

	// /board and /history of the finished game: private answers.
	for _, name := range []string{"board", "history"} {
		from := w.f.Count()
		cb, err := w.answer(p, w.slash(alice, channel, name, "game", gameID))
		if err != nil {
			t.Fatalf("/%s: %v", name, err)
		}
		if !cb.Ephemeral {
			t.Errorf("/%s is not private: %v", name, cb.Payload)
		}
		time.Sleep(200 * time.Millisecond) // let any stray post land
		if n := len(publicIn(from, w.f.Count())); n != 0 {
			t.Errorf("/%s made %d public messages", name, n)
		}
	}

	// Exactly one new public message per move, and every board is still
	// there (none deleted), the last one pinging both players.
	starts = append(starts, w.f.Count())
	for k := 0; k+1 < len(starts); k++ {
		if news := publicIn(starts[k], starts[k+1]); len(news) != 1 {
			t.Errorf("move %d: %d new public messages, want exactly 1", k+1, len(news))
		}
	}
	for _, id := range boards {
		m, ok := w.f.Message(id)
		if !ok || m.Deleted || m.Ephemeral {
			t.Errorf("board %s: present %v, deleted %v, ephemeral %v", id, ok, m.Deleted, m.Ephemeral)
		}
	}
	last, _ := w.f.Message(boards[len(boards)-1])
	if len(last.Notified) != 2 {
		t.Errorf("the final board message notified %v", last.Notified)
	}
	t.Logf("%d moves: %d boards pinged the player to move, the final board pinged %d players; %d new public messages for %d moves",
		len(boards)-1, pinged, len(last.Notified), len(publicIn(starts[0], starts[len(starts)-1])), len(starts)-1)
}
