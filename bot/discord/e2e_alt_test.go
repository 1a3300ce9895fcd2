package discord

import (
	"math/rand/v2"
	"regexp"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/tankbot/tankbot/bot/describe"
	"github.com/tankbot/tankbot/bot/describe/describetest"
	"github.com/tankbot/tankbot/bot/i18n"
	"github.com/tankbot/tankbot/engine/games"
)

// TestE2EAltTextWholeGames plays a game of each game to its end through
// the adapter and the fake Discord, in both modes, reading only the alt
// text of every board picture (its attachment's description): each is
// non-empty and within Discord's 1,024 characters, and each that does not
// say it was cut holds the whole position, rebuilt from its words alone
// (describetest) and compared with the position the moves reached. A cut
// one must point to the text board.
func TestE2EAltTextWholeGames(t *testing.T) {
	if testing.Short() {
		// What it checks is the words of each picture: the bot's
		// concurrency in both modes is raced by the fast tier's e2e
		// tests, and under the race detector the last board of a long
		// random Gungi game (its replay drawn frame by frame) alone takes
		// minutes.
		t.Skip("long tier (no -race): a whole game of each game in both modes")
	}
	plies := 5000 // random play ends each game well within this
	mapRx := regexp.MustCompile(`Map ([^ .]+)\.`)
	for _, m := range modes {
		for _, tc := range []struct{ game, variant string }{{"tank", "basic16"}, {"camelot", "start"}, {"gungi", ""}} {
			t.Run(m.name+"/"+tc.game, func(t *testing.T) {
				t.Parallel()
				e := startBot(t, newWorld(t, m))
				rules, err := games.Lookup(tc.game)
				if err != nil {
					t.Fatal(err)
				}
				g := newGameOf(t, tc.game, tc.variant)
				var opts []any
				if tc.variant != "" {
					opts = append(opts, "map", tc.variant)
				}
				fl := e.startFlow(t, g, tc.game, opts...)
				full, cut := 0, 0
				read := func(board *call) {
					t.Helper()
					alt := board.Files[0].Description
					if n := utf8.RuneCountInString(alt); n == 0 || n > describe.AltLimit {
						t.Fatalf("alt text of %d characters: %q", n, alt)
					}
					for _, f := range board.Files[1:] {
						if f.ContentType == "image/gif" && f.Description == "" {
							t.Errorf("the replay %s has no alt text", f.Name)
						}
					}
					if !describe.Complete(i18n.English, alt) {
						cut++
						if !strings.Contains(alt, "/board text:true") {
							t.Fatalf("a cut alt text does not point to the text board: %q", alt)
						}
						return
					}
					// The terrain: Tank Chess's map as the text names it,
					// the other games' board outline.
					variant := tc.variant
					if tc.game == "tank" {
						mm := mapRx.FindStringSubmatch(alt)
						if mm == nil {
							t.Fatalf("the alt text names no map: %q", alt)
						}
						variant = mm[1]
					}
					terrain, err := rules.Start(variant)
					if err != nil {
						t.Fatalf("map %q: %v", variant, err)
					}
					got, err := describetest.Reconstruct(tc.game, alt, terrain)
					if err != nil {
						t.Fatalf("%v\nalt: %s", err, alt)
					}
					rp, err := rules.Decode(got)
					if err != nil {
						t.Fatalf("rebuilt %q does not decode: %v\nalt: %s", got, err, alt)
					}
					if rp.Encode() != fl.g.pos.Encode() {
						t.Fatalf("rebuilt\n %s\nwant\n %s\nfrom the alt text:\n%s", rp.Encode(), fl.g.pos.Encode(), alt)
					}
					full++
				}
				read(fl.board)
				rng := rand.New(rand.NewPCG(42, uint64(len(tc.game))))
				over := false
				for i := 0; i < plies && !over; i++ {
					ms := fl.g.pos.LegalMoves()
					if len(ms) == 0 {
						break
					}
					// Not fl.move: its checks of pings assume the engine
					// ends the game, and a random game may end by the bot's
					// repetition rule; here only the pictures matter.
					mv := fl.g.pos.FormatMove(ms[rng.IntN(len(ms))])
					calls := fl.do(fl.slash(fl.g.toMove(), gameChannel, "move", "move", mv))
					if r := response(t, calls); flags(r) == 64 {
						t.Fatalf("move %q refused: %s", mv, text(r))
					}
					board := theBoard(t, calls, "move "+mv)
					fl.g.play(mv)
					read(board)
					// The final board carries the record and the replay;
					// a game may end off the engine's status (repetition).
					over = fl.g.pos.Status().Over() || len(board.Files) == 3
				}
				t.Logf("%s %s: %d boards read, %d rebuilt from their alt text, %d cut; game over: %v", m.name, tc.game, full+cut, full, cut, over)
				if !over {
					t.Errorf("the game did not end within %d plies", plies)
				}
			})
		}
	}
}
