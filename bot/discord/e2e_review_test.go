package discord

import (
	"bytes"
	"image"
	"image/color"
	"image/png"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/tankbot/tankbot/bot/discord/discordtest"
	"github.com/tankbot/tankbot/engine/record"
	"github.com/tankbot/tankbot/store/clock"
)

// reviewGames are short games played to their end through Discord, one
// per game: a Tank Chess CLT shot, a Camelot rout (every black piece
// captured; found by the level-3 AI against level 1), the Gungi
// checkmate of the console test.
var reviewGames = []struct {
	name, game, variant string
	line                []string
	result              string
	// nodes is the review's budget per position (before the game's
	// scaling): small, the test checks the review's path, not the AI,
	// under -race on shared machines; enough for each game's blunders to
	// show as turning points.
	nodes int64
	// slash asks with /review first (the progress then edits the
	// deferral's placeholder), the button second.
	slash bool
}{
	{"tank", "tank", "basic16", []string{"H1 > G2N", "I16 > J13S", "J3 > H2SW", "K16 > K15SE", "J1 > H1W",
		"N14 > P14E", "M3 > P6NE (P14)", "G14 > I15NE", "P6 > O8NW (J13)"}, "1-0", 1000, false},
	{"camelot", "camelot", "start", []string{"J6-K7", "E11^E9", "H6^F8", "C11-C10", "G6^E8", "E9-F9", "G7^E9",
		"F10xD8", "F8xF10xH12xJ10xJ12", "D8xF8", "E7xG9xG11xI9xI11xG11xE11xC9xC11xE11xE9"}, "1-0", 2000, true},
	{"gungi", "gungi", "", []string{"M*a9", "M*e1", "ready", "ready",
		"G*c5", "N*i9", "G*c5", "N*h9", "Y*c5", "C*i8",
		"G*d6", "C*h8", "L*d6", "F*i7", "Y*d6"}, "1-0", 2000, false},
}

// stepClock is the bot's clock in the review test: the world's fake
// clock, advanced by step (when set) at every reading, so that a review
// lasts many seconds of the bot's time and shows its progress without a
// test that sleeps.
type stepClock struct {
	f    *clock.Fake
	step atomic.Int64
}

func (c *stepClock) Now() time.Time { return c.f.Advance(time.Duration(c.step.Load())) }

// TestE2EReview plays a short game of each game to its end through the
// fake Discord (both transports, each also with every handler held past
// the direct window so that the interaction is deferred first), presses the final board's Review
// button (Camelot: /review first, the button second), and checks what
// the one who asked sees: a private progress message,
// edited while the review runs and pinging nobody, replaced by the
// review: the evaluation graph (a PNG of readable size in both players'
// colours), the annotated record (read back by engine/record as `tankbot
// replay` reads it, every move replayed, comments included) and the
// turning points' boards (PNGs). A second press is answered from the
// store, without progress.
func TestE2EReview(t *testing.T) {
	var all []mode
	for _, m := range modes {
		slow := m
		slow.slow, slow.name = true, m.name+"-slow"
		all = append(all, m, slow)
	}
	for mi, m := range all {
		for gi, rg := range reviewGames {
			t.Run(m.name+"/"+rg.name, func(t *testing.T) {
				// The fast tier reviews each game once, in a different mode.
				fast := mi == gi*3%len(all)
				if testing.Short() && !fast {
					t.Skip("long tier: every game's review in every mode")
				}
				if longOnly() && fast {
					t.Skip("run by the fast tier")
				}
				t.Parallel()
				w := newWorld(t, m)
				clk := &stepClock{f: w.clk}
				w.botClk = clk
				w.reviewNodes = rg.nodes
				e := startBot(t, w)
				g := newGameOf(t, rg.game, rg.variant)
				var opts []any
				if rg.variant != "" {
					opts = append(opts, "map", rg.variant)
				}
				fl := e.startFlow(t, g, rg.game, opts...)
				for _, mv := range rg.line {
					fl.move(mv)
				}
				if o := g.pos.Status(); !o.Over() || !strings.Contains(o.Result.String(), rg.result) {
					t.Fatalf("the line did not end the game %s: %v", rg.result, o)
				}
				review := idWith(t, fl.board, `^g:\d+:\d+:review$`)

				// Every reading of the bot's clock passes two seconds: the
				// progress (every 3 s) changes every other position.
				ask := e.click(carol, gameChannel, e.f.originalOf(fl.board), review)
				again := e.click(alice, gameChannel, e.f.originalOf(fl.board), review)
				if rg.slash {
					ask, again = e.slash(carol, gameChannel, "review", "game", "#"+fl.id), ask
				}
				clk.step.Store(int64(2 * time.Second))
				calls := e.do(ask)
				clk.step.Store(0)
				for _, c := range calls {
					if c.Created && !c.Ephemeral {
						t.Errorf("the review made a public message: %s %s", c.Method, c.Path)
					}
					if len(c.Notified) > 0 {
						t.Errorf("%s %s pinged %v", c.Method, c.Path, c.Notified)
					}
				}
				msg := progressMessage(t, e, calls, fl.id)
				checkReviewFiles(t, msg.Files, len(rg.line))
				if c := msg.Content(); !strings.Contains(c, "accuracy") || !strings.Contains(c, "#"+fl.id) {
					t.Errorf("the review's text: %q", c)
				}

				// Again: from the store, at once, no progress message.
				calls = e.do(again)
				for _, c := range calls {
					if strings.Contains(c.Path, "/webhooks/") && strings.Contains(dataContent(c), "%") && !strings.Contains(dataContent(c), "accuracy") {
						t.Errorf("a stored review showed progress: %s", dataContent(c))
					}
				}
				r := response(t, calls)
				if flags(r) != 64 {
					t.Fatalf("the second review is not private: %v", r.Payload)
				}
				checkReviewFiles(t, r.Files, len(rg.line))
			})
		}
	}
}

func dataContent(c *call) string { s, _ := data(c)["content"].(string); return s }

// progressMessage finds the private progress message among calls: a
// follow-up of the button, or the placeholder of /review's deferral;
// edited at least once with a new percentage naming game id, and
// finally replaced by the review. It returns the message as Discord
// holds it.
func progressMessage(t *testing.T, e *e2e, calls []*call, id string) discordtest.Message {
	t.Helper()
	var found []discordtest.Message
	seen := map[string]bool{}
	for _, c := range calls {
		for _, mid := range []string{c.MsgID, c.Edited} {
			if mid == "" || seen[mid] {
				continue
			}
			seen[mid] = true
			m, ok := e.f.Message(mid)
			if !ok {
				continue
			}
			for _, v := range m.Versions {
				if c, _ := v["content"].(string); strings.Contains(c, "Reviewing game #"+id) {
					found = append(found, m)
					break
				}
			}
		}
	}
	if len(found) != 1 {
		var all []string
		for _, c := range calls {
			all = append(all, c.Method+" "+c.Path+" "+dataContent(c))
		}
		t.Fatalf("%d progress messages among %q", len(found), all)
	}
	msg := found[0]
	if !msg.Ephemeral || len(msg.Notified) > 0 {
		t.Fatalf("the progress message is not private and silent: %+v", msg)
	}
	var pcts []string
	for k, v := range msg.Versions[:len(msg.Versions)-1] {
		c, _ := v["content"].(string)
		if k == 0 && c == "" {
			continue // the deferral's placeholder ("thinking…")
		}
		if !strings.HasPrefix(c, "🔎 Reviewing game #"+id+"… ") || !strings.HasSuffix(c, " %") {
			t.Fatalf("progress version %q", c)
		}
		if am, _ := v["allowed_mentions"].(map[string]any); am == nil {
			t.Errorf("progress %q without allowed_mentions", c)
		}
		pcts = append(pcts, c)
	}
	if len(pcts) < 2 {
		t.Fatalf("the progress was never edited: %q", pcts)
	}
	for i := 1; i < len(pcts); i++ {
		if pcts[i] == pcts[i-1] {
			t.Errorf("an edit without a new percentage: %q", pcts)
		}
	}
	return msg
}

// checkReviewFiles checks a review's attachments: the graph, the
// annotated record of plies moves, two boards per turning point.
func checkReviewFiles(t *testing.T, files []discordtest.Upload, plies int) {
	t.Helper()
	// The graph, the record and at least one turning point (each game's
	// loser blunders), two boards each.
	if len(files) < 4 || len(files) > 10 || len(files)%2 != 0 {
		t.Fatalf("%d review files", len(files))
	}
	img, err := png.Decode(bytes.NewReader(files[0].Data))
	if err != nil || !strings.HasSuffix(files[0].Name, "-review.png") {
		t.Fatalf("graph %s: %v", files[0].Name, err)
	}
	if b := img.Bounds(); b.Dx() < 600 || b.Dy() < 300 {
		t.Errorf("graph of %v: too small to read in a preview", b)
	}
	// Both players' shares (the graph's white and dark fills) show.
	white, black := color.RGBA{238, 238, 232, 255}, color.RGBA{52, 52, 58, 255}
	if !hasColour(img, white) || !hasColour(img, black) {
		t.Errorf("graph lacks a player's colour (white %v, black %v)", hasColour(img, white), hasColour(img, black))
	}
	if !strings.HasSuffix(files[1].Name, "-review.txt") {
		t.Fatalf("record file %q", files[1].Name)
	}
	rec, err := record.Parse(string(files[1].Data))
	if err != nil {
		t.Fatalf("annotated record: %v\n%s", err, files[1].Data)
	}
	if _, ms, err := rec.Positions(); err != nil || len(ms) != plies {
		t.Fatalf("annotated record replays %d of %d moves: %v", len(ms), plies, err)
	}
	comments := 0
	for _, c := range rec.Comments {
		if strings.Contains(c, "eval ") {
			comments++
		}
	}
	if comments == 0 || !strings.Contains(string(files[1].Data), "[Annotator ") {
		t.Errorf("annotated record without comments or annotator:\n%s", files[1].Data)
	}
	for _, f := range files[2:] {
		if !strings.Contains(f.Name, "-turn") {
			t.Fatalf("extra file %q", f.Name)
		}
		if _, err := png.Decode(bytes.NewReader(f.Data)); err != nil {
			t.Fatalf("%s: %v", f.Name, err)
		}
	}
}

func hasColour(img image.Image, c color.RGBA) bool {
	b := img.Bounds()
	for y := b.Min.Y; y < b.Max.Y; y++ {
		for x := b.Min.X; x < b.Max.X; x++ {
			r, g, bb, _ := img.At(x, y).RGBA()
			if uint8(r>>8) == c.R && uint8(g>>8) == c.G && uint8(bb>>8) == c.B {
				return true
			}
		}
	}
	return false
}
