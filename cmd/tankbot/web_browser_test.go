package main

import (
	"bytes"
	"context"
	"fmt"
	"image"
	"image/png"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"

	"github.com/tankbot/tankbot/engine/games"
	"github.com/tankbot/tankbot/store"
)

// chromium is the headless browser the viewer's tests drive: Debian's
// chromium (installed by .ci/test), or another Chromium found on PATH.
// Without one the tests skip, except under CI=true.
func chromium(t *testing.T) string {
	t.Helper()
	for _, name := range []string{"chromium", "chromium-browser", "google-chrome", "headless-shell"} {
		if p, err := exec.LookPath(name); err == nil {
			return p
		}
	}
	if os.Getenv("CI") == "true" {
		t.Fatal("CI=true but no Chromium found: .ci/test installs Debian's chromium (apt-get install chromium)")
	}
	t.Skip("no Chromium found (Debian: apt-get install chromium): skipping the browser tests of the web viewer")
	return ""
}

// browser starts a headless Chromium with a fresh profile and no network
// of its own (background networking off).
func browser(t *testing.T) context.Context {
	t.Helper()
	exe := chromium(t)
	opts := []chromedp.ExecAllocatorOption{
		chromedp.ExecPath(exe),
		chromedp.Headless,
		chromedp.NoSandbox,
		chromedp.DisableGPU,
		chromedp.NoFirstRun,
		chromedp.NoDefaultBrowserCheck,
		chromedp.UserDataDir(t.TempDir()),
		chromedp.Flag("disable-quic", true),
		chromedp.Flag("disable-background-networking", true),
		chromedp.Flag("disable-component-update", true),
		chromedp.Flag("disable-sync", true),
		chromedp.Flag("disable-dev-shm-usage", true),
		chromedp.WindowSize(1000, 900),
	}
	actx, cancelA := chromedp.NewExecAllocator(context.Background(), opts...)
	ctx, cancelC := chromedp.NewContext(actx)
	ctx, cancelT := context.WithTimeout(ctx, eventWait)
	t.Cleanup(func() { cancelT(); cancelC(); cancelA() })
	if err := chromedp.Do(ctx); err != nil {
		t.Fatalf("start %s: %v", exe, err)
	}
	return ctx
}

// boardShot is a screenshot of the board element, decoded; it fails the
// test unless the board is really drawn there (many colours, not blank).
func boardShot(t *testing.T, ctx context.Context, what string) image.Image {
	t.Helper()
	buf, err := chromedp.Run(ctx, chromedp.Screenshot(chromedp.CSS("#board")))
	if err != nil {
		t.Fatalf("%s: screenshot: %v", what, err)
	}
	img, err := png.Decode(bytes.NewReader(buf))
	if err != nil {
		t.Fatalf("%s: screenshot does not decode: %v", what, err)
	}
	b := img.Bounds()
	if b.Dx() < 200 || b.Dy() < 200 {
		t.Fatalf("%s: board is %dx%d px", what, b.Dx(), b.Dy())
	}
	colours := map[[3]uint32]bool{}
	for y := b.Min.Y; y < b.Max.Y; y += 3 {
		for x := b.Min.X; x < b.Max.X; x += 3 {
			r, g, bl, _ := img.At(x, y).RGBA()
			colours[[3]uint32{r >> 10, g >> 10, bl >> 10}] = true
		}
	}
	if len(colours) < 8 {
		t.Fatalf("%s: the board area has %d colours: no board drawn", what, len(colours))
	}
	return img
}

func sameImage(a, b image.Image) bool {
	if a.Bounds() != b.Bounds() {
		return false
	}
	for y := a.Bounds().Min.Y; y < a.Bounds().Max.Y; y++ {
		for x := a.Bounds().Min.X; x < a.Bounds().Max.X; x++ {
			if a.At(x, y) != b.At(x, y) {
				return false
			}
		}
	}
	return true
}

// waitJS polls a JavaScript condition in the page (across navigations:
// an evaluation during one fails and is retried).
func waitJS(t *testing.T, ctx context.Context, what, cond string) {
	t.Helper()
	var err error
	for deadline := time.Now().Add(eventWait); time.Now().Before(deadline); time.Sleep(20 * time.Millisecond) {
		var ok bool
		if ok, err = chromedp.Run(ctx, chromedp.Evaluate[bool](cond)); err == nil && ok {
			return
		}
	}
	src, _ := chromedp.Run(ctx, chromedp.Evaluate[string](`document.getElementById("board") ? document.getElementById("board").src : document.body.innerText`))
	t.Fatalf("%s: %s not true after 10 s (last error %v; board %s)", what, cond, err, src)
}

// showing is the condition "the board shows ply k, loaded".
func showing(k int) string {
	return fmt.Sprintf(`(function(){var i=document.getElementById("board");return i&&i.src.includes("/ply/%d-")&&i.complete&&i.naturalWidth>0})()`, k)
}

// linkButton is the URL of a message's link button (style 5), or "".
func linkButton(m map[string]any) string {
	rows, _ := m["components"].([]any)
	for _, row := range rows {
		rm, _ := row.(map[string]any)
		comps, _ := rm["components"].([]any)
		for _, c := range comps {
			cm, _ := c.(map[string]any)
			if u, _ := cm["url"].(string); u != "" && num(cm["style"]) == 5 {
				return u
			}
		}
	}
	return ""
}

// TestWebViewerInBrowser drives a real headless Chromium against a running
// `tankbot serve`: a game made through the fake Discord, its page stepped
// with the keyboard, flipped, switched to Thai, and a move made through
// the fake Discord seen live. (An interaction's answer comes in the POST's
// body, 200, or through the callback endpoint, 202.)
func TestWebViewerInBrowser(t *testing.T) {
	ctx := browser(t)
	db := filepath.Join(t.TempDir(), "web.db")
	w := newBBWorld(t, db)
	p := w.start("TANKBOT_WEB_BASE_URL=http://viewer.example")
	alice, bob := bbUser{"711000000000000001", "alice"}, bbUser{"711000000000000002", "bob"}
	const channel = "721000000000000001"

	chFrom, chEv := w.f.Count(), w.slash(alice, channel, "challenge", "opponent", bob, "game", "tank", "color", "white", "thread", false, "clock", "30m")
	code, resp, err := w.post(p, chEv)
	if err != nil || (code != 200 && code != 202) {
		t.Fatalf("challenge: %d %v\n%s", code, err, p.logs.String())
	}
	accept := w.answerOf(t, chFrom, chEv, resp).idWith(t, `^c:\d+:accept$`)
	from := w.f.Count()
	ev := w.click(bob, channel, w.f.NewID(), accept)
	if code, _, err := w.post(p, ev); err != nil || (code != 200 && code != 202) {
		t.Fatalf("accept: %d %v", code, err)
	}
	board, ok := w.board(from, ev["token"].(string), channel, eventWait)
	if !ok {
		t.Fatalf("no board after accepting:\n%s", p.logs.String())
	}
	gameID, _ := strconv.ParseInt(strings.Split(board.idWith(t, `^g:\d+:\d+:resign$`), ":")[1], 10, 64)

	rules, _ := games.Lookup("tank")
	pos, _ := rules.Start("")
	players := [2]bbUser{alice, bob}
	move := func() {
		t.Helper()
		var mv string
		for _, m := range pos.LegalMoves() {
			if q, err := pos.Play(m); err == nil && !q.Status().Over() {
				mv = pos.FormatMove(m)
				pos = q
				break
			}
		}
		from := w.f.Count()
		ev := w.slash(players[pos.Turn().Opponent()], channel, "move", "move", mv)
		code, resp, err := w.post(p, ev)
		if err != nil || (code != 200 && code != 202) {
			t.Fatalf("move %s: %d %v", mv, code, err)
		}
		if data, _ := resp["data"].(map[string]any); !deferred(resp) && data != nil && int(num(data["flags"]))&64 != 0 {
			t.Fatalf("move %s refused: %v", mv, data["content"])
		}
		if _, ok := w.board(from, ev["token"].(string), channel, eventWait); !ok {
			t.Fatalf("no board after %s:\n%s", mv, p.logs.String())
		}
	}
	for range 4 {
		move()
	}

	st, err := store.Open(context.Background(), db)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	// The game message links to the page through web_base_url; the page
	// is served by this instance.
	link := linkButton(board.payload)
	tok, ok := strings.CutPrefix(link, "http://viewer.example/g/")
	if !ok || len(tok) != 22 {
		t.Fatalf("the board's Watch / Replay link is %q, want http://viewer.example/g/<token>", link)
	}
	page := p.base + "/g/" + tok

	// The current position, then the keyboard.
	if err := chromedp.Do(ctx, chromedp.Navigate(page)); err != nil {
		t.Fatal(err)
	}
	waitJS(t, ctx, "open", showing(4))
	lang, err := chromedp.Run(ctx, chromedp.Evaluate[string](`document.documentElement.lang`))
	if err != nil {
		t.Fatal(err)
	}
	ogAttr, err := chromedp.Run(ctx, chromedp.AttributeValue(chromedp.CSS(`meta[property="og:image"]`), "content"))
	if err != nil {
		t.Fatal(err)
	}
	og := ogAttr.Value
	if lang != "en" || !strings.HasPrefix(og, "http://viewer.example/g/"+tok+"/ply/4-") {
		t.Errorf("lang %q, og:image %q", lang, og)
	}
	at4 := boardShot(t, ctx, "ply 4")
	if err := chromedp.Do(ctx, chromedp.KeyEvent(kb.ArrowLeft)); err != nil {
		t.Fatal(err)
	}
	waitJS(t, ctx, "ArrowLeft", showing(3))
	if err := chromedp.Do(ctx, chromedp.KeyEvent(kb.Home)); err != nil {
		t.Fatal(err)
	}
	waitJS(t, ctx, "Home", showing(0))
	waitJS(t, ctx, "Home: address", `location.search.includes("ply=0")`)
	at0 := boardShot(t, ctx, "ply 0")
	if sameImage(at0, at4) {
		t.Error("the board at ply 0 looks like the board at ply 4")
	}
	if err := chromedp.Do(ctx, chromedp.KeyEvent(kb.ArrowRight), chromedp.KeyEvent(kb.ArrowRight)); err != nil {
		t.Fatal(err)
	}
	waitJS(t, ctx, "ArrowRight twice", showing(2))
	if err := chromedp.Do(ctx, chromedp.KeyEvent(kb.End)); err != nil {
		t.Fatal(err)
	}
	waitJS(t, ctx, "End", showing(4))

	// Flip: a link (works without JavaScript), the same ply upside down.
	if err := chromedp.Do(ctx, chromedp.Click(chromedp.CSS("#flip"))); err != nil {
		t.Fatal(err)
	}
	waitJS(t, ctx, "flip", `location.search.includes("flip=1")`)
	waitJS(t, ctx, "flipped board", showing(4)+` && document.getElementById("board").src.includes("flip=1")`)
	if sameImage(boardShot(t, ctx, "flipped"), at4) {
		t.Error("the flipped board looks like the unflipped one")
	}

	// Language: Thai from the language links.
	if err := chromedp.Do(ctx, chromedp.Click(chromedp.CSS(`a[hreflang="th"]`))); err != nil {
		t.Fatal(err)
	}
	waitJS(t, ctx, "Thai", `document.documentElement.lang === "th" && document.body.innerText.includes("ตาเดิน")`)

	// Live: a move through the fake Discord appears within 1 s of reaching
	// the database.
	if err := chromedp.Do(ctx, chromedp.Navigate(page)); err != nil {
		t.Fatal(err)
	}
	waitJS(t, ctx, "reopen", showing(4))
	waitJS(t, ctx, "stream open", `document.getElementById("viewer").dataset.connected === "1"`)
	stored := make(chan time.Time, 1)
	go func() {
		for range 3000 {
			if ms, err := st.Moves(context.Background(), gameID); err == nil && len(ms) == 5 {
				stored <- time.Now()
				return
			}
			time.Sleep(2 * time.Millisecond)
		}
		close(stored)
	}()
	move()
	waitJS(t, ctx, "live move", showing(5)+` && document.getElementById("plies").textContent === "5"`)
	seen := time.Now()
	at, ok := <-stored
	if !ok {
		t.Fatal("the move never reached the database")
	}
	lag := seen.Sub(at)
	t.Logf("live move shown %v after it reached the database", lag)
	if lag > time.Second {
		t.Errorf("the live move took %v to appear, want within 1 s", lag)
	}
	boardShot(t, ctx, "after the live move")
}
