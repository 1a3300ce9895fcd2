package renders

import (
	"bytes"
	"context"
	"errors"
	"path/filepath"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/tankbot/tankbot/store"
	"github.com/tankbot/tankbot/store/clock"
)

// games opens a real SQLite store with a running and a finished game.
func games(t *testing.T) (st *store.Store, running, finished int64) {
	t.Helper()
	ctx := context.Background()
	st, err := store.Open(ctx, filepath.Join(t.TempDir(), "renders.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	cs, _ := clock.ParseSettings("10m+5s")
	mk := func(ch string) int64 {
		g, err := st.CreateGame(ctx, store.Game{Kind: "tank", Variant: "basic16", Guild: "g", Channel: ch, Players: [2]string{"a", "b"},
			Start: "start", Clock: cs.String(), ClockState: clock.Start(cs, time.Now())})
		if err != nil {
			t.Fatal(err)
		}
		return g.ID
	}
	running, finished = mk("c1"), mk("c2")
	if err := st.FinishGame(ctx, finished, 0, store.Outcome{Result: "1-0", Reason: "resign"}); err != nil {
		t.Fatal(err)
	}
	return st, running, finished
}

// A finished game's picture is drawn once, also by a second Renders over
// the same store (a restart, another instance); a running game's is drawn
// every time and never stored.
func TestPictureStoredForFinishedGames(t *testing.T) {
	ctx := context.Background()
	st, running, finished := games(t)
	r := New(st, 2, nil)
	draws := 0
	draw := func() ([]byte, error) { draws++; return []byte{byte(draws)}, nil }
	for range 3 {
		got, err := r.Picture(ctx, finished, true, Replay(false), draw)
		if err != nil || !bytes.Equal(got, []byte{1}) {
			t.Fatalf("finished game's picture %v %v", got, err)
		}
	}
	if again, err := New(st, 2, nil).Picture(ctx, finished, true, Replay(false), draw); err != nil || !bytes.Equal(again, []byte{1}) || draws != 1 {
		t.Fatalf("after a restart: %v %v, %d draws, want the stored one and 1 draw", again, err, draws)
	}
	for range 2 {
		if _, err := r.Picture(ctx, running, false, Board(3, 3, "en", false), draw); err != nil {
			t.Fatal(err)
		}
	}
	if draws != 3 || r.Drawn() != 3 {
		t.Fatalf("%d draws (%d counted), want 3: a running game's pictures are drawn each time", draws, r.Drawn())
	}
	if _, err := st.GameRender(ctx, running, Board(3, 3, "en", false)); !errors.Is(err, store.ErrNotFound) {
		t.Fatalf("a running game's picture was stored: %v", err)
	}
	// A failed draw is an error and stores nothing.
	boom := errors.New("boom")
	if _, err := r.Picture(ctx, finished, true, Replay(true), func() ([]byte, error) { return nil, boom }); !errors.Is(err, boom) {
		t.Fatalf("failed draw: %v", err)
	}
	if _, err := st.GameRender(ctx, finished, Replay(true)); !errors.Is(err, store.ErrNotFound) {
		t.Fatalf("a failed draw stored something: %v", err)
	}
}

// At most K draws run at once; the others wait their turn, or give up
// when their request ends; the same finished picture asked at once is
// drawn once.
func TestPictureSlots(t *testing.T) {
	ctx := context.Background()
	st, running, finished := games(t)
	r := New(st, 2, nil)
	if r.Slots().Cap() != 2 || New(nil, 0, nil).Slots().Cap() < 1 {
		t.Fatal("slot counts")
	}
	var now, peak atomic.Int64
	gate := make(chan struct{})
	slow := func() ([]byte, error) {
		n := now.Add(1)
		for {
			p := peak.Load()
			if n <= p || peak.CompareAndSwap(p, n) {
				break
			}
		}
		<-gate
		now.Add(-1)
		return []byte("x"), nil
	}
	var wg sync.WaitGroup
	for i := range 6 {
		wg.Go(func() {
			if _, err := r.Picture(ctx, running, false, Board(i, 9, "en", false), slow); err != nil {
				t.Error(err)
			}
		})
	}
	// Two draw; the other four wait for a slot.
	for now.Load() < 2 {
		time.Sleep(time.Millisecond)
	}
	// A request that ends while waiting gives up.
	short, cancel := context.WithCancel(ctx)
	cancel()
	if _, err := r.Picture(short, running, false, "x.png", slow); !errors.Is(err, context.Canceled) {
		t.Fatalf("a cancelled wait: %v", err)
	}
	close(gate)
	wg.Wait()
	if p := peak.Load(); p != 2 {
		t.Fatalf("%d draws ran at once, want 2", p)
	}

	// Ten callers asking for the same finished picture share one draw.
	var draws atomic.Int64
	hold := make(chan struct{})
	once := func() ([]byte, error) { draws.Add(1); <-hold; return []byte("gif"), nil }
	for range 10 {
		wg.Go(func() {
			if got, err := r.Picture(ctx, finished, true, Replay(false), once); err != nil || string(got) != "gif" {
				t.Errorf("shared draw: %q %v", got, err)
			}
		})
	}
	for draws.Load() == 0 {
		time.Sleep(time.Millisecond)
	}
	time.Sleep(20 * time.Millisecond) // let the others reach the shared draw (or the store, once it is saved)
	close(hold)
	wg.Wait()
	if n := draws.Load(); n != 1 {
		t.Fatalf("the same picture was drawn %d times", n)
	}
}

func TestNames(t *testing.T) {
	for _, c := range []struct {
		got, want string
	}{
		{Board(3, 10, "en", false), "ply-3-en.png"},
		{Board(10, 10, "th", true), "final-th-flip.png"},
		{Board(0, 0, "pt-BR", false), "final-pt-BR.png"},
		{Replay(false), "replay.gif"},
		{Replay(true), "replay-flip.gif"},
	} {
		if c.got != c.want {
			t.Errorf("name %q, want %q", c.got, c.want)
		}
	}
}

func TestLRUBound(t *testing.T) {
	c := NewLRU(100)
	for i := range 10 {
		c.Put(string(rune('a'+i)), make([]byte, 30))
	}
	if c.Bytes() > 100 {
		t.Fatalf("cache holds %d bytes over its bound 100", c.Bytes())
	}
	if _, ok := c.Get("a"); ok {
		t.Error("oldest entry kept")
	}
	if _, ok := c.Get("j"); !ok {
		t.Error("newest entry lost")
	}
}

// A finished picture's draw goes on when the request that started it
// ends: the request gets its context's error, the picture is stored.
func TestSharedDrawOutlivesItsRequest(t *testing.T) {
	st, _, finished := games(t)
	r := New(st, 1, nil)
	ctx, cancel := context.WithCancel(context.Background())
	started, finish := make(chan struct{}), make(chan struct{})
	errc := make(chan error, 1)
	go func() {
		_, err := r.Picture(ctx, finished, true, Replay(false), func() ([]byte, error) {
			close(started)
			<-finish
			return []byte("gif"), nil
		})
		errc <- err
	}()
	<-started
	cancel()
	if err := <-errc; !errors.Is(err, context.Canceled) {
		t.Fatalf("the request that left: %v", err)
	}
	close(finish)
	// The next request reads what the first one's draw stored (or joins
	// it while it is being saved): never a second draw.
	got, err := r.Picture(context.Background(), finished, true, Replay(false), func() ([]byte, error) {
		t.Error("drawn twice")
		return nil, errors.New("drawn twice")
	})
	if err != nil || string(got) != "gif" {
		t.Fatalf("after the first request left: %q %v", got, err)
	}
}
