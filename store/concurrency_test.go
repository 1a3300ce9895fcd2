package store

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/tankbot/tankbot/store/storetest"
)

// TestConcurrentMoves has many goroutines race to append to the same games:
// each ply must have exactly one winner and every log must be gapless.
func TestConcurrentMoves(t *testing.T) { storetest.Run(t, testConcurrentMoves) }

func testConcurrentMoves(t *testing.T, b storetest.Backend) {
	ctx := context.Background()
	s := open(t, b.New(t), nil)
	const games, workers, plies = 4, 6, 30
	ids := make([]int64, games)
	for i := range ids {
		g, err := s.CreateGame(ctx, newGame(fmt.Sprint("c", i), "a", "b"))
		if err != nil {
			t.Fatal(err)
		}
		ids[i] = g.ID
	}
	var wins [games][plies + 1]atomic.Int32
	var wg sync.WaitGroup
	for w := range workers {
		for gi, id := range ids {
			wg.Go(func() {
				for {
					g, err := s.Game(ctx, id)
					if err != nil {
						t.Error(err)
						return
					}
					if g.Ply >= plies {
						return
					}
					n := g.Ply + 1
					err = s.AppendMove(ctx, id, g.Ply, MoveRecord{Side: g.Ply % 2, Notation: fmt.Sprintf("w%d-%d", w, n), Position: fmt.Sprint("p", n)}, GameUpdate{})
					switch {
					case err == nil:
						wins[gi][n].Add(1)
					case errors.Is(err, ErrStalePly):
					default:
						t.Error(err)
						return
					}
				}
			})
		}
	}
	wg.Wait()
	for gi, id := range ids {
		g, ms, err := s.LoadGame(ctx, id)
		if err != nil {
			t.Fatal(err)
		}
		if g.Ply != plies || len(ms) != plies || g.Position != fmt.Sprint("p", plies) {
			t.Fatalf("game %d: ply %d, %d moves", id, g.Ply, len(ms))
		}
		for i, m := range ms {
			if m.Ply != i+1 {
				t.Fatalf("game %d: log gap at %d: %+v", id, i, m)
			}
			if c := wins[gi][i+1].Load(); c != 1 {
				t.Fatalf("game %d ply %d: %d winners", id, i+1, c)
			}
		}
	}
}

// TestConcurrentAccept: only one of many simultaneous accepts wins.
func TestConcurrentAccept(t *testing.T) { storetest.Run(t, testConcurrentAccept) }

func testConcurrentAccept(t *testing.T, b storetest.Backend) {
	ctx := context.Background()
	s := open(t, b.New(t), nil)
	c, err := s.CreateChallenge(ctx, Challenge{Challenger: "a", Kind: "tank", Channel: "c", Expires: t0})
	if err != nil {
		t.Fatal(err)
	}
	var won atomic.Int32
	var wg sync.WaitGroup
	for i := range 8 {
		wg.Go(func() {
			_, err := s.AcceptChallenge(ctx, c.ID, newGame("c", "a", fmt.Sprint("u", i)))
			switch {
			case err == nil:
				won.Add(1)
			case !errors.Is(err, ErrNotPending):
				t.Error(err)
			}
		})
	}
	wg.Wait()
	if won.Load() != 1 {
		t.Fatalf("%d accepts won", won.Load())
	}
	if gs, _ := s.ChannelGames(ctx, "c"); len(gs) != 1 {
		t.Fatalf("%d games created", len(gs))
	}
}

// TestConcurrentClaims: schedulers racing on one file each get a due event
// at most once, and together all of them.
func TestConcurrentClaims(t *testing.T) { storetest.Run(t, testConcurrentClaims) }

func testConcurrentClaims(t *testing.T, b storetest.Backend) {
	ctx := context.Background()
	s := open(t, b.New(t), nil)
	const n = 200
	for i := range n {
		if _, err := s.Schedule(ctx, Event{Kind: "flag", Ref: int64(i), Due: t0}); err != nil {
			t.Fatal(err)
		}
	}
	var seen [n]atomic.Int32
	var wg sync.WaitGroup
	for range 6 {
		wg.Go(func() {
			for range 20 {
				es, err := s.ClaimDue(ctx, t0, time.Hour)
				if err != nil {
					t.Error(err)
					return
				}
				for _, e := range es {
					seen[e.Ref].Add(1)
				}
			}
		})
	}
	wg.Wait()
	for i := range seen {
		if c := seen[i].Load(); c != 1 {
			t.Fatalf("event %d claimed %d times", i, c)
		}
	}
}

// TestManyStoresClaim is several instances on one database: each opens its
// own Store at the same moment (the migrations run once), then they claim
// the same due events from many goroutines. Each event goes to exactly one
// claimer per lease; the ones nobody completed come back exactly once after
// the lease.
func TestManyStoresClaim(t *testing.T) { storetest.Run(t, testManyStoresClaim) }

func testManyStoresClaim(t *testing.T, b storetest.Backend) {
	ctx := context.Background()
	loc := b.New(t)
	const instances, workers, n = 4, 3, 300
	stores := make([]*Store, instances)
	var wg sync.WaitGroup
	for i := range stores {
		wg.Go(func() {
			s, err := Open(ctx, loc)
			if err != nil {
				t.Error(err)
				return
			}
			stores[i] = s
		})
	}
	wg.Wait()
	for _, s := range stores {
		if s == nil {
			t.FailNow()
		}
		t.Cleanup(func() { s.Close() })
	}
	ms, _ := migrations(b.Name == "postgres")
	var applied int
	if err := stores[0].r.QueryRowContext(ctx, `SELECT COUNT(*) FROM schema_version`).Scan(&applied); err != nil || applied != len(ms) {
		t.Fatalf("%d schema_version rows (%v), want %d", applied, err, len(ms))
	}
	for i := range n {
		// Spread over the stores, due over a minute.
		if _, err := stores[i%instances].Schedule(ctx, Event{Kind: "flag", Ref: int64(i), Due: t0.Add(time.Duration(i%60) * time.Second)}); err != nil {
			t.Fatal(err)
		}
	}
	claimAll := func(now time.Time) (seen [n]atomic.Int32, attempts [n]atomic.Int32) {
		var wg sync.WaitGroup
		for _, s := range stores {
			for range workers {
				wg.Go(func() {
					for range 10 {
						es, err := s.ClaimDue(ctx, now, time.Minute)
						if err != nil {
							t.Error(err)
							return
						}
						for _, e := range es {
							seen[e.Ref].Add(1)
							attempts[e.Ref].Store(int32(e.Attempts))
							if e.Ref%3 != 0 { // every third claimer "dies" before completing
								if err := s.Complete(ctx, e.ID); err != nil {
									t.Error(err)
								}
							}
						}
					}
				})
			}
		}
		wg.Wait()
		return
	}
	now := t0.Add(2 * time.Minute)
	seen, attempts := claimAll(now)
	for i := range seen {
		if c := seen[i].Load(); c != 1 || attempts[i].Load() != 1 {
			t.Fatalf("event %d claimed %d times (attempts %d) in the first lease", i, c, attempts[i].Load())
		}
	}
	// Within the lease nothing is handed out again.
	for _, s := range stores {
		if es, err := s.ClaimDue(ctx, now.Add(59*time.Second), time.Minute); err != nil || len(es) != 0 {
			t.Fatalf("claimed within the lease: %d %v", len(es), err)
		}
	}
	seen, attempts = claimAll(now.Add(time.Minute))
	for i := range seen {
		want := int32(0)
		if i%3 == 0 {
			want = 1
		}
		if c := seen[i].Load(); c != want || want == 1 && attempts[i].Load() != 2 {
			t.Fatalf("event %d claimed %d times after the lease (attempts %d), want %d", i, c, attempts[i].Load(), want)
		}
	}
}
