package store

import (
	"context"
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/tankbot/tankbot/store/storetest"
)

func TestSwapMeta(t *testing.T) { storetest.Run(t, testSwapMeta) }

func testSwapMeta(t *testing.T, b storetest.Backend) {
	ctx := context.Background()
	s := open(t, b.New(t), nil)
	swap := func(key, old, new string, want bool) {
		t.Helper()
		ok, err := s.SwapMeta(ctx, key, old, new)
		if err != nil || ok != want {
			t.Fatalf("SwapMeta(%q, %q, %q) = %v, %v; want %v", key, old, new, ok, err, want)
		}
	}
	swap("k", "x", "y", false) // never set: only "" matches
	if _, err := s.Meta(ctx, "k"); err == nil {
		t.Fatal("a failed swap created the key")
	}
	swap("k", "", "a", true)
	swap("k", "", "b", false) // set now: "" no longer matches
	swap("k", "z", "b", false)
	if v, _ := s.Meta(ctx, "k"); v != "a" {
		t.Fatalf("after refused swaps: %q", v)
	}
	swap("k", "a", "b", true)
	swap("k", "a", "c", false)
	if v, _ := s.Meta(ctx, "k"); v != "b" {
		t.Fatalf("after swap: %q", v)
	}
	swap("k", "b", "", true) // cleared: "" matches again
	swap("k", "", "d", true)
	if v, _ := s.Meta(ctx, "k"); v != "d" {
		t.Fatalf("after clear and swap: %q", v)
	}
}

// Several stores on one database (several instances) race to claim a key:
// exactly one wins each round.
func TestSwapMetaOneWinner(t *testing.T) { storetest.Run(t, testSwapMetaOneWinner) }

func testSwapMetaOneWinner(t *testing.T, b storetest.Backend) {
	ctx := context.Background()
	dsn := b.New(t)
	stores := []*Store{open(t, dsn, nil), open(t, dsn, nil), open(t, dsn, nil)}
	const rounds, racers = 20, 6
	prev := ""
	for r := 0; r < rounds; r++ {
		next := fmt.Sprintf("claim-%d", r)
		var wg sync.WaitGroup
		var mu sync.Mutex
		wins := 0
		for i := 0; i < racers; i++ {
			wg.Add(1)
			go func(st *Store) {
				defer wg.Done()
				ok, err := st.SwapMeta(ctx, "reg", prev, next)
				if err != nil {
					t.Errorf("swap: %v", err)
				}
				if ok {
					mu.Lock()
					wins++
					mu.Unlock()
				}
			}(stores[i%len(stores)])
		}
		wg.Wait()
		if wins != 1 {
			t.Fatalf("round %d: %d winners, want 1", r, wins)
		}
		prev = next
	}
}

// Games created at once in one guild (accepts answered by several
// instances) get distinct numbers, none refused.
func TestConcurrentNumbers(t *testing.T) { storetest.Run(t, testConcurrentNumbers) }

func testConcurrentNumbers(t *testing.T, b storetest.Backend) {
	ctx := context.Background()
	dsn := b.New(t)
	stores := []*Store{open(t, dsn, nil), open(t, dsn, nil), open(t, dsn, nil)}
	const n = 60
	ids := make(chan int64, n)
	var wg sync.WaitGroup
	for i := 0; i < n; i++ {
		wg.Add(1)
		go func(i int) {
			defer wg.Done()
			g, err := stores[i%3].CreateGame(ctx, newGame(fmt.Sprint("ch", i), fmt.Sprint("a", i), fmt.Sprint("b", i)))
			if err != nil {
				t.Errorf("create %d: %v", i, err)
				return
			}
			ids <- g.ID
		}(i)
	}
	wg.Wait()
	close(ids)
	seen := map[int]bool{}
	for id := range ids {
		num, _, err := stores[0].GameNumber(ctx, id)
		if err != nil {
			t.Fatal(err)
		}
		if seen[num] {
			t.Errorf("number %d given twice", num)
		}
		seen[num] = true
	}
	if len(seen) != n {
		t.Errorf("%d distinct numbers for %d games", len(seen), n)
	}
}

// Several instances claiming the outbox at once: each message goes to
// exactly one of them per lease.
func TestClaimOutboxOnce(t *testing.T) { storetest.Run(t, testClaimOutboxOnce) }

func testClaimOutboxOnce(t *testing.T, b storetest.Backend) {
	ctx := context.Background()
	dsn := b.New(t)
	stores := []*Store{open(t, dsn, nil), open(t, dsn, nil), open(t, dsn, nil), open(t, dsn, nil)}
	const n = 60
	for i := 0; i < n; i++ {
		if _, err := stores[0].Enqueue(ctx, Message{Channel: fmt.Sprint("c", i%7), Payload: "{}"}); err != nil {
			t.Fatal(err)
		}
	}
	var mu sync.Mutex
	claims := map[int64]int{}
	var wg sync.WaitGroup
	for k := 0; k < 8; k++ {
		wg.Add(1)
		go func(st *Store) {
			defer wg.Done()
			for round := 0; round < 20; round++ {
				ms, err := st.ClaimOutbox(ctx, t0, time.Minute, 5)
				if err != nil {
					t.Error(err)
					return
				}
				mu.Lock()
				for _, m := range ms {
					claims[m.ID]++
				}
				mu.Unlock()
				for _, m := range ms {
					if err := st.MarkSent(ctx, m.ID, "x"); err != nil {
						t.Error(err)
					}
				}
			}
		}(stores[k%len(stores)])
	}
	wg.Wait()
	for id, c := range claims {
		if c != 1 {
			t.Errorf("message %d claimed %d times", id, c)
		}
	}
	if len(claims) != n {
		t.Errorf("%d of %d messages claimed", len(claims), n)
	}
}
