package store

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/tankbot/tankbot/store/clock"
	"github.com/tankbot/tankbot/store/storetest"
)

// TestBoardsSuperseded: every recorded board but the newest is to be
// stripped, whatever order the ids arrive in, and a record that leaves two
// live boards makes sure a strip post waits in the game's lane.
func TestBoardsSuperseded(t *testing.T) { storetest.Run(t, testBoardsSuperseded) }

func testBoardsSuperseded(t *testing.T, b storetest.Backend) {
	ctx := context.Background()
	s := open(t, b.New(t), nil)
	g, err := s.CreateGame(ctx, newGame("c", "a", "b"))
	if err != nil {
		t.Fatal(err)
	}
	msgs := func(bs []Board) []string {
		var out []string
		for _, b := range bs {
			out = append(out, b.Message)
		}
		return out
	}
	strips := func() int {
		es, err := s.Outbox(ctx)
		if err != nil {
			t.Fatal(err)
		}
		n := 0
		for _, e := range es {
			if e.Kind == OutboxStrip && e.State == OutboxPending {
				if e.Game != g.ID || !strings.HasPrefix(e.Channel, fmt.Sprintf("%s%d:", StripChannelPrefix, g.ID)) {
					t.Fatalf("strip post %+v", e)
				}
				n++
			}
		}
		return n
	}
	if err := s.RecordBoard(ctx, g.ID, 1, "m1"); err != nil {
		t.Fatal(err)
	}
	if bs, _ := s.SupersededBoards(ctx, g.ID); len(bs) != 0 || strips() != 0 {
		t.Fatalf("one board: superseded %v, %d strips", msgs(bs), strips())
	}
	// Boards 3 then 2 (its id known late): 1 and 2 are old.
	for _, r := range []struct {
		seq int
		id  string
	}{{3, "m3"}, {2, "m2"}} {
		if err := s.RecordBoard(ctx, g.ID, r.seq, r.id); err != nil {
			t.Fatal(err)
		}
	}
	bs, err := s.SupersededBoards(ctx, g.ID)
	if err != nil || !slices.Equal(msgs(bs), []string{"m1", "m2"}) || bs[0].Channel != "c" || bs[1].Seq != 2 {
		t.Fatalf("superseded %+v %v", bs, err)
	}
	// One waiting strip post serves both (it reads the boards when run).
	if n := strips(); n != 1 {
		t.Fatalf("%d strip posts, want 1", n)
	}
	// Once it is claimed, a new board queues another.
	claimed, err := s.ClaimOutbox(ctx, time.Now(), time.Minute, 10)
	if err != nil || len(claimed) != 1 || claimed[0].Kind != OutboxStrip {
		t.Fatalf("claim %+v %v", claimed, err)
	}
	if err := s.RecordBoard(ctx, g.ID, 3, "m3"); err != nil {
		t.Fatal(err)
	}
	if n := strips(); n != 2 {
		t.Fatalf("%d strip posts pending after the claim, want 2", n)
	}
	if n, err := s.SupersededLive(ctx); n != 2 || err != nil {
		t.Fatalf("SupersededLive %d %v", n, err)
	}
	// Recording the same message again (an in-place edit) changes nothing;
	// a duplicate at the newest seq recorded later supersedes m3.
	if err := s.RecordBoard(ctx, g.ID, 3, "m3"); err != nil {
		t.Fatal(err)
	}
	if err := s.RecordBoard(ctx, g.ID, 3, "m3b"); err != nil {
		t.Fatal(err)
	}
	bs, _ = s.SupersededBoards(ctx, g.ID)
	if !slices.Equal(msgs(bs), []string{"m1", "m2", "m3"}) {
		t.Fatalf("superseded %v", msgs(bs))
	}
	for _, m := range []string{"m1", "m2", "m3"} {
		if err := s.BoardStripped(ctx, g.ID, m); err != nil {
			t.Fatal(err)
		}
	}
	if bs, _ := s.SupersededBoards(ctx, g.ID); len(bs) != 0 {
		t.Fatalf("after stripping: %v", msgs(bs))
	}
	all, _ := s.Boards(ctx, g.ID)
	if len(all) != 4 || !all[3].Live || all[0].Live {
		t.Fatalf("boards %+v", all)
	}
	// The first board (seq 0) recorded late is superseded at once.
	if err := s.RecordBoard(ctx, g.ID, 0, "m0"); err != nil {
		t.Fatal(err)
	}
	all, _ = s.Boards(ctx, g.ID)
	if all[0].Message != "m0" || all[0].Seq != 0 {
		t.Fatalf("seq-0 board %+v", all[0])
	}
	if bs, _ := s.SupersededBoards(ctx, g.ID); len(bs) != 1 || bs[0].Message != "m0" {
		t.Fatalf("superseded %v", msgs(bs))
	}
	// An unknown seq (below 0) is the game's seq when recorded.
	if err := s.RecordBoard(ctx, g.ID, -1, "mu"); err != nil {
		t.Fatal(err)
	}
	cur, _ := s.Game(ctx, g.ID)
	all, _ = s.Boards(ctx, g.ID)
	if i := slices.IndexFunc(all, func(b Board) bool { return b.Message == "mu" }); i < 0 || int64(all[i].Seq) != cur.Seq {
		t.Fatalf("unknown-seq board %+v (game seq %d)", all, cur.Seq)
	}
	if err := s.RecordBoard(ctx, g.ID+99, 1, "x"); err == nil {
		t.Fatal("recorded a board of a missing game")
	}
}

// TestBoardsRecordedAtOnce: boards of one game recorded from many
// goroutines at once leave exactly the newest live once every queued strip
// is done, on both backends (PostgreSQL: READ COMMITTED, several
// connections).
func TestBoardsRecordedAtOnce(t *testing.T) { storetest.Run(t, testBoardsRecordedAtOnce) }

func testBoardsRecordedAtOnce(t *testing.T, b storetest.Backend) {
	ctx := context.Background()
	loc := b.New(t)
	s1, s2 := open(t, loc, nil), open(t, loc, nil)
	g, err := s1.CreateGame(ctx, newGame("c", "a", "b"))
	if err != nil {
		t.Fatal(err)
	}
	const n = 40
	var wg sync.WaitGroup
	for i := 1; i <= n; i++ {
		st := s1
		if i%2 == 0 {
			st = s2
		}
		wg.Go(func() {
			if err := st.RecordBoard(ctx, g.ID, i, "m"+time.Duration(i).String()); err != nil {
				t.Error(err)
			}
		})
	}
	wg.Wait()
	// Drain the strip posts as a deliverer would.
	for range 100 {
		ms, err := s1.ClaimOutbox(ctx, time.Now(), time.Minute, 10)
		if err != nil {
			t.Fatal(err)
		}
		if len(ms) == 0 {
			break
		}
		for _, m := range ms {
			bs, err := s1.SupersededBoards(ctx, m.Game)
			if err != nil {
				t.Fatal(err)
			}
			for _, b := range bs {
				if err := s1.BoardStripped(ctx, b.Game, b.Message); err != nil {
					t.Fatal(err)
				}
			}
			if err := s1.MarkSent(ctx, m.ID, ""); err != nil {
				t.Fatal(err)
			}
		}
	}
	all, _ := s1.Boards(ctx, g.ID)
	var live []Board
	for _, b := range all {
		if b.Live {
			live = append(live, b)
		}
	}
	if len(all) != n || len(live) != 1 || live[0].Seq != n {
		t.Fatalf("%d boards, live %+v", len(all), live)
	}
}

// TestBoardHooks: a board keeps the interaction webhook it was recorded
// with (the freshest when recorded again), the token goes once the board is
// stripped, and Purge forgets tokens older than its cutoff, never one
// younger than 15 minutes.
func TestBoardHooks(t *testing.T) { storetest.Run(t, testBoardHooks) }

func testBoardHooks(t *testing.T, b storetest.Backend) {
	ctx := context.Background()
	fc := clock.NewFake(t0)
	s := open(t, b.New(t), fc)
	g, err := s.CreateGame(ctx, newGame("c", "a", "b"))
	if err != nil {
		t.Fatal(err)
	}
	h1 := BoardHook{Token: "tok1", Message: "@original", Issued: t0}
	if err := s.RecordBoardVia(ctx, g.ID, 1, "m1", h1); err != nil {
		t.Fatal(err)
	}
	// The same message answered again by a newer interaction (an update),
	// then recorded without a webhook: the newest webhook stays.
	h2 := BoardHook{Token: "tok2", Message: "@original", Issued: t0.Add(time.Minute)}
	if err := s.RecordBoardVia(ctx, g.ID, 1, "m1", h2); err != nil {
		t.Fatal(err)
	}
	if err := s.RecordBoard(ctx, g.ID, 1, "m1"); err != nil {
		t.Fatal(err)
	}
	if err := s.RecordBoardVia(ctx, g.ID, 2, "m2", BoardHook{Token: "tok3", Message: "m2", Issued: t0.Add(2 * time.Minute)}); err != nil {
		t.Fatal(err)
	}
	if err := s.RecordBoard(ctx, g.ID, 3, "m3"); err != nil {
		t.Fatal(err)
	}
	bs, err := s.SupersededBoards(ctx, g.ID)
	if err != nil || len(bs) != 2 {
		t.Fatalf("superseded %+v %v", bs, err)
	}
	if got := bs[0].Hook; got.Token != "tok2" || got.Message != "@original" || !got.Issued.Equal(h2.Issued) {
		t.Fatalf("m1's webhook %+v, want %+v", got, h2)
	}
	if got := bs[1].Hook; got.Token != "tok3" || got.Message != "m2" {
		t.Fatalf("m2's webhook %+v", got)
	}
	if err := s.BoardStripped(ctx, g.ID, "m1"); err != nil {
		t.Fatal(err)
	}
	all, _ := s.Boards(ctx, g.ID)
	if all[0].Hook.Token != "" || all[2].Hook.Token != "" {
		t.Fatalf("a stripped board (or one posted with the bot token) keeps a token: %+v", all)
	}
	// m2's token lives 15 minutes from its interaction.
	fc.Advance(15 * time.Minute)
	if _, err := s.Purge(ctx, fc.Now()); err != nil {
		t.Fatal(err)
	}
	m2 := func() Board {
		all, _ := s.Boards(ctx, g.ID)
		for _, b := range all {
			if b.Message == "m2" {
				return b
			}
		}
		t.Fatal("board m2 went")
		return Board{}
	}
	if b := m2(); b.Hook.Token != "tok3" {
		t.Fatalf("a live token was forgotten: %+v", b)
	}
	fc.Advance(3 * time.Minute)
	if _, err := s.Purge(ctx, fc.Now()); err != nil {
		t.Fatal(err)
	}
	if b := m2(); b.Hook.Token != "" || !b.Live {
		t.Fatalf("a dead token was kept: %+v", b)
	}
}

// TestPendingBoard: a board recorded before its answer was sent is replaced
// by its message once recorded through the same hook; left alone (its
// process died) it is superseded by the next board and listed for
// stripping, through its hook.
func TestPendingBoard(t *testing.T) { storetest.Run(t, testPendingBoard) }

func testPendingBoard(t *testing.T, b storetest.Backend) {
	ctx := context.Background()
	s := open(t, b.New(t), nil)
	g, err := s.CreateGame(ctx, newGame("c1", "a", "b"))
	if err != nil {
		t.Fatal(err)
	}
	h1 := BoardHook{Token: "tok-1", Message: "@original", Issued: t0}
	if err := s.RecordPendingBoard(ctx, g.ID, 1, h1); err != nil {
		t.Fatal(err)
	}
	if err := s.RecordBoardVia(ctx, g.ID, 1, "m1", h1); err != nil {
		t.Fatal(err)
	}
	bs, err := s.Boards(ctx, g.ID)
	if err != nil || len(bs) != 1 || bs[0].Message != "m1" {
		t.Fatalf("after the answer was recorded: %+v %v", bs, err)
	}
	// The next answer's process dies after Discord took it.
	h2 := BoardHook{Token: "tok-2", Message: "@original", Issued: t0}
	if err := s.RecordPendingBoard(ctx, g.ID, 2, h2); err != nil {
		t.Fatal(err)
	}
	if err := s.RecordBoardVia(ctx, g.ID, 3, "m3", BoardHook{Token: "tok-3", Message: "@original", Issued: t0}); err != nil {
		t.Fatal(err)
	}
	sup, err := s.SupersededBoards(ctx, g.ID)
	if err != nil || len(sup) != 2 || sup[0].Message != "m1" || !IsPendingBoard(sup[1].Message) || sup[1].Hook.Token != "tok-2" || sup[1].Hook.Message != "@original" {
		t.Fatalf("superseded boards %+v %v: want m1 and the pending one, with its hook", sup, err)
	}
}
