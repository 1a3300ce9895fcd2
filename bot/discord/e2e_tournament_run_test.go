package discord

import (
	"bytes"
	"context"
	"fmt"
	"image/png"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/tankbot/tankbot/bot/tournament"
	"github.com/tankbot/tankbot/bot/tournament/director"
	"github.com/tankbot/tankbot/engine/games"
	"github.com/tankbot/tankbot/store"
)

// Whole tournaments through the fake Discord on the injected clock: the
// players join, play (moves, resignations) and withdraw by interactions;
// the scheduler's passes (Tick) deliver the queued posts, adjudicate at
// the round deadline and start the next rounds. Each run checks the
// round's pings (each paired player pinged once, by the game's first
// board naming the opponent, the colours and the deadline), the
// standings PNG and the final post pinging the podium.

// entrants are the players of these runs (alice organises and plays).
var entrants = []who{alice, bob, carol, {"204", "dave"}, {"205", "erin"}, {"206", "fred"}, {"207", "gina"}, {"208", "hugo"}}

// event is one tournament being run by a bot on the world's database.
type event struct {
	t *testing.T
	w *world
	e *e2e
}

func newEvent(t *testing.T, w *world, n int, opts ...any) *event {
	v := &event{t: t, w: w, e: startBot(t, w)}
	kv := append([]any{"action", "create", "game", "tank", "roundlength", "1d"}, opts...)
	if r := response(t, v.e.do(v.e.slash(alice, gameChannel, "tournament", kv...))); flags(r) == 64 || !strings.Contains(text(r), "tournament #1") {
		t.Fatalf("create: %s", text(r))
	}
	for _, u := range entrants[:n] {
		if r := response(t, v.e.do(v.e.slash(u, gameChannel, "tournament", "action", "join"))); flags(r) == 64 {
			t.Fatalf("%s join refused: %s", u.name, text(r))
		}
	}
	return v
}

// state reads the tournament as stored, through a store of its own.
func (v *event) state() *director.Event {
	v.t.Helper()
	db, err := store.Open(context.Background(), v.w.db)
	if err != nil {
		v.t.Fatal(err)
	}
	defer db.Close()
	ev, err := (&director.Director{Store: db, Now: v.w.clk.Now}).Load(context.Background(), 1)
	if err != nil {
		v.t.Fatal(err)
	}
	return ev
}

// game is a stored game.
func (v *event) game(id int64) *store.Game {
	v.t.Helper()
	db, err := store.Open(context.Background(), v.w.db)
	if err != nil {
		v.t.Fatal(err)
	}
	defer db.Close()
	g, err := db.Game(context.Background(), id)
	if err != nil {
		v.t.Fatal(err)
	}
	if g.Thread == "" {
		v.t.Fatalf("game %d is not played in a thread", id)
	}
	g.Channel = g.Thread // where its players act
	return g
}

func user(id string) who {
	for _, u := range entrants {
		if u.id == id {
			return u
		}
	}
	return who{id, id}
}

// start starts the tournament and checks round 1's pings.
func (v *event) start() {
	v.t.Helper()
	calls := v.e.do(v.e.slash(alice, gameChannel, "tournament", "action", "start"))
	if r := response(v.t, calls); flags(r) == 64 {
		v.t.Fatalf("start refused: %s", text(r))
	}
	v.roundPings(calls, 1)
}

// tick runs one scheduler pass and returns its calls (a pass may fail a
// post on purpose: the error is the test's to judge).
func (v *event) tick() ([]*call, error) {
	from := v.w.f.count()
	err := v.e.b.Tick(context.Background())
	return v.w.f.callsFrom(from), err
}

// roundPings checks the new messages that started round r: every player
// paired in a game is pinged exactly once, by a board in the game's own
// thread naming both players with their colours and the round's
// deadline; nobody else is pinged, byes and forfeits included.
func (v *event) roundPings(calls []*call, r int) {
	v.t.Helper()
	ev := v.state()
	want := map[string]bool{}
	games := 0
	for _, p := range ev.T.Rounds[r-1] {
		if p.GameID != 0 {
			want[p.White], want[p.Black] = true, true
			games++
		}
	}
	got := map[string]int{}
	for _, c := range publicNew(calls) {
		ids := c.Notified
		if len(ids) == 0 || strings.Contains(text(c), " is over") {
			continue // a game's final board pings its players: not the round's
		}
		ids = mentioned(v.t, c)
		for _, id := range ids {
			got[id]++
		}
		content, _ := data(c)["content"].(string)
		if len(ids) != 2 || !strings.Contains(content, fmt.Sprintf("round %d: the round ends <t:%d", r, ev.T.RoundDeadline.Unix())) ||
			!strings.Contains(content, user(ids[0]).name) || !strings.Contains(content, user(ids[1]).name) ||
			!strings.Contains(content, "(White) vs") || strings.Contains(c.Path, "/"+gameChannel+"/") {
			v.t.Errorf("round %d: a ping that is not a game's first board in its thread (opponent, colours, deadline): %s %q", r, c.Path, content)
		}
	}
	for id := range want {
		if got[id] != 1 {
			v.t.Errorf("round %d: %s pinged %d times, want once", r, user(id).name, got[id])
		}
	}
	for id, n := range got {
		if !want[id] {
			v.t.Errorf("round %d: %s (not playing a game) pinged %d times", r, user(id).name, n)
		}
	}
	// One thread per game, none twice (the games of a round start when
	// its last result comes in, before this pass delivers their boards).
	if n := len(find(v.w.f.callsFrom(0), "POST", "/threads")); n != v.gamesSoFar() || games == 0 {
		v.t.Errorf("round %d: %d threads opened for %d games (%d this round)", r, n, v.gamesSoFar(), games)
	}
}

// gamesSoFar counts the games the tournament has started.
func (v *event) gamesSoFar() int {
	n := 0
	for _, rd := range v.state().T.Rounds {
		for _, p := range rd {
			if p.GameID != 0 {
				n++
			}
		}
	}
	return n
}

// resign has loser resign game id as a player does: /resign, then the
// confirmation's button. It returns the calls of the confirmation.
func (v *event) resign(gameID int64, loser string) []*call {
	v.t.Helper()
	g := v.game(gameID)
	u := user(loser)
	ask := response(v.t, v.e.do(v.e.slash(u, g.Channel, "resign", "game", strconv.Itoa(g.Number))))
	if flags(ask) != 64 {
		v.t.Fatalf("resign of game %d by %s: %s", gameID, u.name, text(ask))
	}
	calls := v.e.do(v.e.click(u, g.Channel, v.w.f.originalOf(ask), idWith(v.t, ask, `:resignyes$`)))
	if g := v.game(gameID); g.Status == "active" {
		v.t.Fatalf("game %d still running after %s resigned", gameID, u.name)
	}
	return calls
}

// move plays one legal move for the player to move in game id with /move.
func (v *event) move(gameID int64) {
	v.t.Helper()
	g := v.game(gameID)
	rules, err := games.Lookup(g.Kind)
	if err != nil {
		v.t.Fatal(err)
	}
	pos, err := rules.Decode(g.Position)
	if err != nil {
		v.t.Fatal(err)
	}
	mv := (&game{t: v.t, pos: pos}).anyMove()
	u := user(g.Players[int(pos.Turn())])
	if r := response(v.t, v.e.do(v.e.slash(u, g.Channel, "move", "move", mv, "game", strconv.Itoa(g.Number)))); flags(r) == 64 {
		v.t.Fatalf("move %s by %s refused: %s", mv, u.name, text(r))
	}
}

// loserOf picks who resigns a board: White on odd boards of odd rounds
// and even boards of even rounds, else Black, so results vary.
func loserOf(p tournament.Pairing) string {
	if (p.Board+p.Round)%2 == 0 {
		return p.White
	}
	return p.Black
}

// finishRound resigns every running game of the current round but those
// in keep, then runs a scheduler pass and checks the next round's pings
// (or, after the last round, nothing more). It returns the pass's calls.
func (v *event) finishRound(keep map[int]bool) []*call {
	v.t.Helper()
	ev := v.state()
	r := ev.T.Round
	for _, p := range ev.T.Rounds[r-1] {
		if p.GameID != 0 && p.Result == tournament.Pending && !keep[p.Board] {
			v.resign(p.GameID, loserOf(p))
		}
	}
	calls, err := v.tick()
	if err != nil {
		v.t.Fatalf("pass after round %d: %v", r, err)
	}
	if after := v.state(); after.T.Status == tournament.Running {
		if after.T.Round != r+1 {
			v.t.Fatalf("after round %d: at round %d", r, after.T.Round)
		}
		v.roundPings(calls, r+1)
	}
	return calls
}

// restart closes the adapter and the store and opens a new bot on the
// same SQLite file, starting as `tankbot run` does (Recover, then the
// scheduler's first pass); it returns that pass's calls.
func (v *event) restart() []*call {
	v.t.Helper()
	v.e.stop()
	v.e = startBot(v.t, v.w)
	from := v.w.f.count()
	if err := v.e.b.Recover(context.Background()); err != nil {
		v.t.Fatal(err)
	}
	if err := v.e.b.Tick(context.Background()); err != nil {
		v.t.Fatal(err)
	}
	return v.w.f.callsFrom(from)
}

// standingsPNG asks for the standings and decodes the picture.
func (v *event) standingsPNG(who who) {
	v.t.Helper()
	r := response(v.t, v.e.do(v.e.slash(who, gameChannel, "tournament", "action", "standings", "id", "1")))
	if flags(r) != 64 || len(r.Files) == 0 {
		v.t.Fatalf("standings: flags %d, %d files: %s", flags(r), len(r.Files), text(r))
	}
	for _, f := range r.Files {
		img, err := png.Decode(bytes.NewReader(f.Data))
		if err != nil {
			v.t.Fatalf("%s: %v", f.Name, err)
		}
		if b := img.Bounds(); b.Dx() < 400 || b.Dy() < 100 {
			v.t.Errorf("%s is %v, too small to read", f.Name, b)
		}
	}
}

// final checks the final post, delivered by the scheduler in the
// tournament's channel: once, pinging the podium (the first three not
// withdrawn) with the standings picture.
func (v *event) final(calls []*call) {
	v.t.Helper()
	ev := v.state()
	if ev.T.Status != tournament.Finished {
		v.t.Fatalf("tournament %s, want finished", ev.T.Status)
	}
	var podium []string
	for _, s := range ev.T.Standings() {
		if s.Rank <= 3 && !s.Withdrawn {
			podium = append(podium, s.Player)
		}
	}
	var finals []*call
	for _, c := range publicNew(v.w.f.callsFrom(0)) {
		if strings.Contains(text(c), "Tournament #1 is over") {
			finals = append(finals, c)
		}
	}
	if len(finals) != 1 {
		v.t.Fatalf("%d final posts, want 1", len(finals))
	}
	f := finals[0]
	if !strings.Contains(f.Path, "/channels/"+gameChannel+"/messages") {
		v.t.Errorf("the final post went to %s", f.Path)
	}
	pinged(v.t, f, "the final post", podium...)
	if len(f.Files) == 0 {
		v.t.Fatal("the final post has no standings picture")
	}
	for _, file := range f.Files {
		if _, err := png.Decode(bytes.NewReader(file.Data)); err != nil {
			v.t.Errorf("%s: %v", file.Name, err)
		}
	}
	found := false
	for _, c := range calls {
		found = found || c == f
	}
	if !found {
		v.t.Error("the final post did not come with the pass after the last game")
	}
}

// e2eTournamentSwiss: 8 players, 3 Swiss rounds. In round 2 one player
// withdraws mid-round (their running game is forfeited to the opponent,
// who is pinged in its thread; they are not paired again) and the bot
// restarts with the round half played: the new bot on the same file
// neither pairs nor starts anything twice and the round goes on.
func e2eTournamentSwiss(t *testing.T, w *world) {
	v := newEvent(t, w, 8, "format", "swiss", "rounds", "3")
	v.start()
	v.standingsPNG(carol)
	v.finishRound(nil)

	ev := v.state()
	r2 := ev.T.Rounds[1]
	quitter := r2[0].Black
	calls := v.e.do(v.e.slash(user(quitter), gameChannel, "tournament", "action", "withdraw"))
	if r := response(t, calls); flags(r) == 64 {
		t.Fatalf("withdraw refused: %s", text(r))
	}
	forfeit := false
	for _, c := range publicNew(calls) {
		if strings.Contains(text(c), "by forfeit") {
			pinged(t, c, "the forfeit notice", r2[0].White)
			forfeit = true
		}
	}
	if !forfeit {
		t.Error("the opponent of the withdrawn player was not told of the forfeit")
	}
	if g := v.game(r2[0].GameID); g.Result != "1-0" {
		t.Errorf("the withdrawn player's game: %s, want 1-0", g.Result)
	}
	refused(t, v.e.do(v.e.slash(user(quitter), gameChannel, "tournament", "action", "withdraw")), "second withdrawal")

	// Half the round is played, then the restart.
	v.resign(r2[1].GameID, loserOf(r2[1]))
	before := v.state()
	calls = v.restart()
	if len(publicNew(calls)) != 0 || len(find(calls, "POST", "/threads")) != 0 {
		t.Errorf("the restart posted %d messages, opened %d threads", len(publicNew(calls)), len(find(calls, "POST", "/threads")))
	}
	after := v.state()
	if after.T.Round != 2 || fmt.Sprint(after.T.Rounds) != fmt.Sprint(before.T.Rounds) {
		t.Fatalf("the restart changed the rounds:\n%v\n%v", before.T.Rounds, after.T.Rounds)
	}
	// Names are stored: the pairings after the restart name the players.
	pr := text(response(t, v.e.do(v.e.slash(dave, gameChannel, "tournament", "action", "pairings"))))
	for _, p := range after.T.Rounds[1] {
		if !strings.Contains(pr, user(p.White).name) || strings.Contains(pr, p.White) {
			t.Errorf("pairings after the restart do not name %s: %q", user(p.White).name, pr)
		}
	}
	v.finishRound(nil)
	for _, p := range v.state().T.Rounds[2] {
		if p.White == quitter || p.Black == quitter {
			t.Errorf("the withdrawn player is paired in round 3: %+v", p)
		}
	}
	v.standingsPNG(dave)
	v.final(v.finishRound(nil))
	refused(t, v.e.do(v.e.slash(alice, gameChannel, "tournament", "action", "start", "id", "1")), "start after the end")
}

var dave = entrants[3]

// e2eTournamentRoundRobin: 5 players, so 5 rounds with one bye each. In
// round 2 one game is left at a position where White moved once and
// Black never did: at the round's deadline the scheduler adjudicates it
// (docs/tournaments.md: the side to move loses; one that never moved
// forfeits), ends the game and starts round 3.
func e2eTournamentRoundRobin(t *testing.T, w *world) {
	// Correspondence: three days a move, so no game's own clock falls
	// before the round's one-day deadline.
	v := newEvent(t, w, 5, "format", "round-robin", "clock", "3d")
	v.start()
	for r := 1; r <= 5; r++ {
		ev := v.state()
		byes := 0
		for _, p := range ev.T.Rounds[r-1] {
			if p.IsBye() {
				byes++
			}
		}
		if byes != 1 {
			t.Errorf("round %d has %d byes, want 1", r, byes)
		}
		if r != 2 {
			calls := v.finishRound(nil)
			if r == 5 {
				v.final(calls)
			}
			continue
		}
		var left tournament.Pairing
		for _, p := range ev.T.Rounds[1] {
			if p.GameID != 0 {
				left = p
			}
		}
		v.move(left.GameID) // White moves; Black never does
		for _, p := range ev.T.Rounds[1] {
			if p.GameID != 0 && p.Board != left.Board {
				v.resign(p.GameID, loserOf(p))
			}
		}
		if calls, err := v.tick(); err != nil || len(publicNew(calls)) != 0 || v.state().T.Round != 2 {
			t.Fatalf("before the deadline: %v, %d posts, round %d", err, len(publicNew(calls)), v.state().T.Round)
		}
		w.clk.Set(ev.T.RoundDeadline.Add(time.Second))
		calls, err := v.tick()
		if err != nil {
			t.Fatal(err)
		}
		after := v.state()
		if got := after.T.Rounds[1][left.Board-1].Result; got != tournament.WhiteForfeit {
			t.Errorf("adjudicated %v, want %v (Black never moved)", got, tournament.WhiteForfeit)
		}
		if g := v.game(left.GameID); g.Status == "active" || g.Result != "1-0" {
			t.Errorf("the adjudicated game: %s %s", g.Status, g.Result)
		}
		// Its final board, queued with the result, tells both players.
		told := 0
		for _, c := range publicNew(calls) {
			if strings.Contains(text(c), "adjudicated") {
				pinged(t, c, "the adjudicated game's final board", left.White, left.Black)
				told++
			}
		}
		if told != 1 {
			t.Errorf("%d final boards of the adjudicated game, want 1", told)
		}
		if after.T.Round != 3 {
			t.Fatalf("round %d after the deadline, want 3", after.T.Round)
		}
		v.roundPings(calls, 3)
		r++ // round 3 was started by the deadline's pass
		v.finishRound(nil)
	}
	v.standingsPNG(bob)
}

// e2eTournamentKnockout: 6 players, so a bracket of 8: the two top seeds
// have byes in round 1, then the semi-finals and the final. Discord
// refuses the announcement of round 2 (every attempt of one pass): the
// outbox keeps it and a later pass delivers it, exactly once, with the
// same nonce.
func e2eTournamentKnockout(t *testing.T, w *world) {
	v := newEvent(t, w, 6, "format", "knockout")
	v.start()
	ev := v.state()
	byes := 0
	for _, p := range ev.T.Rounds[0] {
		if p.IsBye() {
			byes++
		}
	}
	if len(ev.T.Rounds[0]) != 4 || byes != 2 {
		t.Fatalf("round 1: %d boards, %d byes; want 4 and 2", len(ev.T.Rounds[0]), byes)
	}
	v.w.f.failNext("POST", "/channels/"+gameChannel+"/messages", 500, 0, maxAttempts)
	for _, p := range ev.T.Rounds[0] {
		if p.GameID != 0 {
			v.resign(p.GameID, loserOf(p))
		}
	}
	calls, err := v.tick()
	if err == nil {
		t.Error("the refused announcement was not reported by the pass")
	}
	announced := func(cs []*call) (ok, refused int, nonces []string) {
		for _, c := range cs {
			if c.Method != "POST" || !strings.Contains(c.Path, "/channels/"+gameChannel+"/messages") || !strings.Contains(text(c), "round 2 is paired") {
				continue
			}
			n, _ := c.Payload["nonce"].(string)
			nonces = append(nonces, n)
			if c.Status < 300 && c.Created {
				ok++
			} else {
				refused++
			}
		}
		return
	}
	if ok, bad, _ := announced(calls); ok != 0 || bad != maxAttempts {
		t.Fatalf("first pass: %d announcements delivered, %d refused", ok, bad)
	}
	// The semi-finals' boards went out in that pass all the same.
	v.roundPings(calls, 2)
	w.clk.Advance(time.Minute)
	later, err := v.tick()
	if err != nil {
		t.Fatal(err)
	}
	if ok, _, _ := announced(later); ok != 1 {
		t.Errorf("the later pass delivered %d announcements, want 1", ok)
	}
	more, err := v.tick()
	if ok, _, _ := announced(more); err != nil || ok != 0 {
		t.Errorf("a third pass: %v, %d announcements", err, ok)
	}
	if _, _, nonces := announced(v.w.f.callsFrom(0)); len(nonces) != maxAttempts+1 || nonces[0] == "" || nonces[0] != nonces[len(nonces)-1] {
		t.Errorf("nonces of the attempts: %v", nonces)
	}
	v.finishRound(nil)
	ev = v.state()
	if len(ev.T.Rounds[2]) != 1 {
		t.Fatalf("the final has %d boards", len(ev.T.Rounds[2]))
	}
	v.final(v.finishRound(nil))
	v.standingsPNG(carol)
}
