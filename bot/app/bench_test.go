package app

import (
	"context"
	"fmt"
	"math/rand/v2"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/tankbot/tankbot/bot/view"
	"github.com/tankbot/tankbot/engine"
	"github.com/tankbot/tankbot/store/clock"
)

// BenchmarkMove measures one move handled end to end in process: parse,
// validate, SQLite compare-and-set commit, clocks and events, PNG render,
// reply. Many games are played concurrently; each op is one move. It
// reports per-move latency percentiles and throughput.
func BenchmarkMove(b *testing.B) {
	st, err := OpenSQLite(filepath.Join(b.TempDir(), "bench.db"))
	if err != nil {
		b.Fatal(err)
	}
	defer st.Close()
	clk := clock.NewFake(t0)
	bt := New(Config{}, st, clk, &fakeNotifier{}, nil)
	ctx := context.Background()
	const games = 32
	type table struct {
		mu      sync.Mutex
		id      int64
		players [2]User
	}
	tables := make([]*table, games)
	for i := range tables {
		w, k := User{ID: fmt.Sprintf("w%d", i), Name: "w"}, User{ID: fmt.Sprintf("b%d", i), Name: "b"}
		c := Command{Name: "challenge", User: w, GuildID: "g", ChannelID: fmt.Sprintf("c%d", i),
			Options: map[string]string{"opponent": k.ID, "color": "white", "clock": "10m+5s"}, Users: map[string]User{k.ID: k}}
		rs := bt.Handle(ctx, c)
		acc := Command{Kind: KindComponent, CustomID: rs[0].Components[0][0].CustomID, User: k, GuildID: "g", ChannelID: c.ChannelID}
		for _, r := range bt.Handle(ctx, acc) {
			if isBoard(r) {
				tables[i] = &table{id: gameOf(r), players: [2]User{w, k}}
			}
		}
	}
	var next atomic.Int64
	lat := make([]time.Duration, 0, b.N)
	var latMu sync.Mutex
	b.ResetTimer()
	start := time.Now()
	b.SetParallelism(4)
	b.RunParallel(func(pb *testing.PB) {
		var mine []time.Duration
		for pb.Next() {
			tb := tables[next.Add(1)%games]
			tb.mu.Lock()
			g, err := bt.St.game(ctx, tb.id)
			if err != nil {
				b.Error(err)
			}
			if g.Status != GmActive { // restart a finished table
				tb.mu.Unlock()
				continue
			}
			pos, _ := g.Position()
			moves := pos.LegalMoves()
			mv := pos.FormatMove(moves[(g.Ply*7)%len(moves)])
			u := tb.players[int(pos.Turn())]
			t := time.Now()
			rs := bt.Handle(ctx, Command{Name: "move", User: u, GuildID: "g", ChannelID: g.ChannelID, Options: map[string]string{"move": mv}})
			mine = append(mine, time.Since(t))
			tb.mu.Unlock()
			if len(rs) == 0 || rs[0].Ephemeral || len(rs[0].Files) != 1 {
				b.Errorf("move %s refused: %+v", mv, rs)
				return
			}
		}
		latMu.Lock()
		lat = append(lat, mine...)
		latMu.Unlock()
	})
	elapsed := time.Since(start)
	b.StopTimer()
	if len(lat) == 0 {
		return
	}
	sort.Slice(lat, func(i, j int) bool { return lat[i] < lat[j] })
	b.ReportMetric(float64(lat[len(lat)/2].Microseconds())/1000, "p50-ms")
	b.ReportMetric(float64(lat[len(lat)*99/100].Microseconds())/1000, "p99-ms")
	b.ReportMetric(float64(len(lat))/elapsed.Seconds(), "moves/s")
}

// BenchmarkFinalBoard measures what a long game's game-over message
// uploads: the final board PNG, the record and the animated replay, for a
// game of up to 100 random plies of each game (fewer when it ends sooner).
// Each op completes one final board (rating lines, record, replay).
//
//	go test ./bot -run '^$' -bench FinalBoard -benchtime 1x
func BenchmarkFinalBoard(b *testing.B) {
	for _, tc := range []struct{ game, variant string }{{"tank", "basic20"}, {"camelot", ""}, {"gungi", ""}} {
		b.Run(tc.game, func(b *testing.B) {
			st, err := OpenSQLite(filepath.Join(b.TempDir(), "bench.db"))
			if err != nil {
				b.Fatal(err)
			}
			defer st.Close()
			bt := New(Config{}, st, clock.NewFake(t0), &fakeNotifier{}, nil)
			ctx := context.Background()
			w, k := User{ID: "w", Name: "alice"}, User{ID: "k", Name: "bob"}
			c := Command{Name: "challenge", User: w, GuildID: "g", ChannelID: "c",
				Options: map[string]string{"opponent": k.ID, "color": "white", "clock": "untimed", "game": tc.game}, Users: map[string]User{k.ID: k}}
			if tc.variant != "" {
				// A blank map option is an empty position, refused: only
				// a named variant is passed.
				c.Options["map"] = tc.variant
			}
			rs := bt.Handle(ctx, c)
			if len(rs) != 1 || len(rs[0].Components) == 0 {
				b.Fatalf("challenge refused: %+v", rs)
			}
			var id int64
			for _, r := range bt.Handle(ctx, Command{Kind: KindComponent, CustomID: rs[0].Components[0][0].CustomID, User: k, GuildID: "g", ChannelID: "c"}) {
				if isBoard(r) {
					id = gameOf(r)
				}
			}
			rng := rand.New(rand.NewPCG(7, 7))
			for ply := 0; ply < 100; ply++ {
				g, _ := bt.St.game(ctx, id)
				if g.Status != GmActive {
					break
				}
				pos, _ := g.Position()
				moves := pos.LegalMoves()
				u := [2]User{w, k}[int(pos.Turn())]
				mv := pos.FormatMove(moves[rng.IntN(len(moves))])
				bt.Handle(ctx, Command{Name: "move", User: u, GuildID: "g", ChannelID: "c", Options: map[string]string{"move": mv}})
			}
			g, _ := bt.St.game(ctx, id)
			if g.Status == GmActive {
				if err := bt.end(ctx, g, engine.Win(engine.White, engine.ReasonResignation)); err != nil {
					b.Fatal(err)
				}
			}
			pos, _ := g.Position()
			var reply view.Reply
			b.ResetTimer()
			for range b.N {
				reply, _ = bt.BoardReply(ctx, &Req{Loc: "en", Pub: "en"}, g, pos, nil, "", false)
				bt.finalExtras(ctx, "en", g, &reply)
			}
			b.StopTimer()
			total := 0
			for _, f := range reply.Files {
				total += len(f.Data)
				b.ReportMetric(float64(len(f.Data))/1000, strings.TrimPrefix(filepath.Ext(f.Name), ".")+"-kB")
			}
			b.ReportMetric(float64(total)/1000, "total-kB")
			b.ReportMetric(float64(g.Ply), "plies")
		})
	}
}
