package app

import (
	"bytes"
	"context"
	"image/gif"
	"math/rand/v2"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/tankbot/tankbot/bot/renders"
	"github.com/tankbot/tankbot/bot/view"
	"github.com/tankbot/tankbot/engine/games"
	"github.com/tankbot/tankbot/store"
	"github.com/tankbot/tankbot/store/clock"
)

// longGame stores a finished Tank Chess game (20×20) of up to plies
// random moves that do not end it, and returns its number.
func longGame(tb testing.TB, st *store.Store, plies int) (number, played int) {
	tb.Helper()
	ctx := context.Background()
	rules, _ := games.Lookup("tank")
	pos, err := rules.Start("basic20")
	if err != nil {
		tb.Fatal(err)
	}
	for _, p := range []store.Player{{ID: "w", Name: "alice"}, {ID: "k", Name: "bob"}} {
		if err := st.PutPlayer(ctx, p); err != nil {
			tb.Fatal(err)
		}
	}
	g, err := st.CreateGame(ctx, store.Game{Kind: "tank", Variant: "basic20", Guild: "g", Channel: "c",
		Players: [2]string{"w", "k"}, Start: pos.Encode(), Clock: "none"})
	if err != nil {
		tb.Fatal(err)
	}
	rng := rand.New(rand.NewPCG(15, 0))
	for ply := 0; ply < plies; ply++ {
		moves := pos.LegalMoves()
		next, note := pos, ""
		for _, i := range rng.Perm(len(moves)) {
			q, err := pos.Play(moves[i])
			if err == nil && !q.Status().Over() {
				next, note = q, pos.FormatMove(moves[i])
				break
			}
		}
		if note == "" {
			break
		}
		if err := st.AppendMove(ctx, g.ID, ply, store.MoveRecord{Side: int(pos.Turn()), Notation: note, Position: next.Encode()}, store.GameUpdate{}); err != nil {
			tb.Fatal(err)
		}
		pos, played = next, ply+1
	}
	if err := st.FinishGame(ctx, g.ID, played, store.Outcome{Result: "1-0", Reason: "resignation"}); err != nil {
		tb.Fatal(err)
	}
	return g.Number, played
}

// BenchmarkHistoryLongGame measures /history of a finished 1,500-ply
// Tank Chess game (20×20): the first call draws the replay (sampled to
// fit renders.MaxGIFBytes) and stores it (first-ms); a bot started afresh
// reads it from the database (restart-ms); each op is a later call on the
// first bot, served from memory. Target: ≤ 50 ms per later call.
//
//	go test ./bot -run '^$' -bench HistoryLongGame -benchtime 1x
func BenchmarkHistoryLongGame(b *testing.B) {
	st, err := OpenSQLite(filepath.Join(b.TempDir(), "bench.db"))
	if err != nil {
		b.Fatal(err)
	}
	defer st.Close()
	number, plies := longGame(b, st.(*storeRepo).st, 1500)
	bt := New(Config{}, st, clock.NewFake(t0), &fakeNotifier{}, nil)
	ctx := context.Background()
	c := Command{Kind: KindSlash, Name: "history", User: User{ID: "x", Name: "carol"}, GuildID: "g", ChannelID: "c",
		Options: map[string]string{"game": "#" + strconv.Itoa(number)}, Users: map[string]User{}}
	replay := func(rs []view.Reply) []byte {
		for _, r := range rs {
			for _, f := range r.Files {
				if strings.HasSuffix(f.Name, ".gif") {
					return f.Data
				}
			}
		}
		b.Fatalf("/history without a replay: %+v", rs)
		return nil
	}
	start := time.Now()
	first := replay(bt.Handle(ctx, c))
	firstTook := time.Since(start)
	anim, err := gif.DecodeAll(bytes.NewReader(first))
	if err != nil {
		b.Fatal(err)
	}
	if len(first) > renders.MaxGIFBytes {
		b.Fatalf("replay of %d bytes over the %d limit", len(first), renders.MaxGIFBytes)
	}
	// A bot started afresh over the same database reads the stored replay.
	fresh := New(Config{}, st, clock.NewFake(t0), &fakeNotifier{}, nil)
	runtime.GC() // the first draw's garbage is not the later calls' cost
	start = time.Now()
	if again := replay(fresh.Handle(ctx, c)); !bytes.Equal(again, first) || fresh.Renders().Drawn() != 0 {
		b.Fatal("a restarted bot drew the replay again")
	}
	restartTook := time.Since(start)
	runtime.GC()
	var got []byte
	b.ResetTimer()
	for b.Loop() {
		got = replay(bt.Handle(ctx, c))
	}
	b.StopTimer()
	if !bytes.Equal(got, first) || bt.Renders().Drawn() != 1 {
		b.Fatalf("a later /history drew again (%d draws)", bt.Renders().Drawn())
	}
	b.ReportMetric(float64(firstTook.Milliseconds()), "first-ms")
	b.ReportMetric(float64(restartTook.Microseconds())/1000, "restart-ms")
	b.ReportMetric(float64(plies), "plies")
	b.ReportMetric(float64(len(anim.Image)), "frames")
	b.ReportMetric(float64(len(first))/1e6, "gif-MB")
}
