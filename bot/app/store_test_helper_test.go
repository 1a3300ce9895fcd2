package app

import (
	"path/filepath"
	"testing"
)

// newTestRepo opens a real SQLite file in the test's temp dir.
func newTestRepo(t *testing.T) Storage {
	t.Helper()
	st, err := OpenSQLite(filepath.Join(t.TempDir(), "bot.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	return st
}
