package console

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/tankbot/tankbot/bot"
)

// The Gungi draft against the computer completes in the console whatever
// the order of the ready declarations: after "ready" the computer places
// alone, several moves in a row, within the same line's settling, until it
// declares ready too.
func TestConsoleVsAIGungiDraftCompletes(t *testing.T) {
	for _, tc := range []struct {
		color string
		lines []string
	}{
		{"white", []string{"M*e1", "ready"}},
		{"white", []string{"M*e1", "P*a3", "ready"}},
		{"black", []string{"M*e9", "ready"}},
	} {
		t.Run(tc.color+"-"+strings.Join(tc.lines, ","), func(t *testing.T) {
			if testing.Short() && len(tc.lines) > 2 {
				t.Skip("long tier: a ready after more placements")
			}
			// The long tier after the fast tier (.ci/test --long sets
			// TANKBOT_TEST_LONG_ONLY) runs only what the fast tier left.
			if !testing.Short() && os.Getenv("TANKBOT_TEST_LONG_ONLY") != "" && len(tc.lines) <= 2 {
				t.Skip("run by the fast tier")
			}
			dir := t.TempDir()
			st, err := bot.OpenSQLite(filepath.Join(dir, "play.db"))
			if err != nil {
				t.Fatal(err)
			}
			defer st.Close()
			ctx := context.Background()
			clk := NewClock(time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC))
			var out strings.Builder
			c := &Console{Out: &out, Clock: clk, PNGDir: dir, Guild: "g", Channel: "table", Locale: "en"}
			c.Bot = bot.New(bot.Config{SelfID: SelfID, AIWorkers: 1}, st, clk, c, nil)
			if err := c.VsAI(ctx, 1, "gungi", "", "untimed", tc.color); err != nil {
				t.Fatal(err)
			}
			if err := c.Run(ctx, strings.NewReader(strings.Join(tc.lines, "\n"))); err != nil {
				t.Fatal(err)
			}
			got := out.String()
			// The computer's own ready is the last draft move; the game
			// proper then begins.
			if !strings.Contains(got, `tankbot (level 1) played ready`) {
				t.Fatalf("the computer never declared ready after you did:\n%s", got[max(0, len(got)-3000):])
			}
		})
	}
}
