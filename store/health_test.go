package store

import (
	"context"
	"os"
	"strings"
	"testing"

	"github.com/tankbot/tankbot/store/storetest"
)

func TestReady(t *testing.T) { storetest.Run(t, testReady) }

// testReady: Ready says why the database cannot serve (schema from another
// version, SQLite file gone, pools closed) and recovers when it can again;
// Stats counts active games and the outbox backlog.
func testReady(t *testing.T, b storetest.Backend) {
	ctx := context.Background()
	loc := b.New(t)
	s := open(t, loc, nil)
	if err := s.Ready(ctx); err != nil {
		t.Fatalf("fresh database not ready: %v", err)
	}
	ms, _ := migrations(s.pg)
	if _, err := s.w.ExecContext(ctx, `INSERT INTO schema_version(version, applied_at) VALUES(?, 0)`, len(ms)+1); err != nil {
		t.Fatal(err)
	}
	if err := s.Ready(ctx); err == nil || !strings.Contains(err.Error(), "schema is at version") {
		t.Fatalf("newer schema: %v", err)
	}
	if _, err := s.w.ExecContext(ctx, `DELETE FROM schema_version WHERE version=?`, len(ms)+1); err != nil {
		t.Fatal(err)
	}
	if err := s.Ready(ctx); err != nil {
		t.Fatalf("schema back: %v", err)
	}
	if b.Name == "sqlite" {
		os.Rename(loc, loc+".away")
		if err := s.Ready(ctx); err == nil || !strings.Contains(err.Error(), "database file") {
			t.Fatalf("file gone: %v", err)
		}
		os.Rename(loc+".away", loc)
		if err := s.Ready(ctx); err != nil {
			t.Fatalf("file back: %v", err)
		}
	}
	if _, err := s.CreateGame(ctx, newGame("c", "a", "b")); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Enqueue(ctx, Message{Channel: "c", Payload: "{}"}); err != nil {
		t.Fatal(err)
	}
	st, err := s.Stats(ctx)
	if err != nil || st.ActiveGames != 1 || st.OutboxPending != 1 || !st.OutboxOldest.Equal(t0) {
		t.Fatalf("stats %+v %v", st, err)
	}
	s.Close()
	if err := s.Ready(ctx); err == nil || !strings.Contains(err.Error(), "unreachable") {
		t.Fatalf("closed store: %v", err)
	}
}
