package web

import (
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"

	"github.com/tankbot/tankbot/bot/i18n"
)

// axePath is axe-core as `npm ci` installs it from
// testdata/a11y/package-lock.json (.ci/test runs it).
var axePath = filepath.Join("testdata", "a11y", "node_modules", "axe-core", "axe.min.js")

// needed is a missing tool of the accessibility test: it fails under
// CI=true, else skips.
func needed(t *testing.T, what string) {
	t.Helper()
	if os.Getenv("CI") == "true" {
		t.Fatalf("CI=true but %s", what)
	}
	t.Skipf("%s: skipping the accessibility test of the web viewer", what)
}

func a11yBrowser(t *testing.T) context.Context {
	t.Helper()
	exe := ""
	for _, name := range []string{"chromium", "chromium-browser", "google-chrome", "headless-shell"} {
		if p, err := exec.LookPath(name); err == nil {
			exe = p
			break
		}
	}
	if exe == "" {
		needed(t, "no Chromium found (Debian: apt-get install chromium)")
	}
	actx, cancelA := chromedp.NewExecAllocator(context.Background(),
		chromedp.ExecPath(exe), chromedp.Headless, chromedp.NoSandbox, chromedp.DisableGPU,
		chromedp.NoFirstRun, chromedp.NoDefaultBrowserCheck, chromedp.UserDataDir(t.TempDir()),
		chromedp.Flag("disable-background-networking", true), chromedp.Flag("disable-component-update", true),
		chromedp.Flag("disable-dev-shm-usage", true), chromedp.WindowSize(1000, 900))
	ctx, cancelC := chromedp.NewContext(actx)
	ctx, cancelT := context.WithTimeout(ctx, 3*time.Minute)
	t.Cleanup(func() { cancelT(); cancelC(); cancelA() })
	if err := chromedp.Do(ctx); err != nil {
		t.Fatalf("start %s: %v", exe, err)
	}
	return ctx
}

type axeViolation struct {
	ID     string `json:"id"`
	Impact string `json:"impact"`
	Help   string `json:"help"`
	Nodes  []struct {
		Target []any `json:"target"`
	} `json:"nodes"`
}

// axeRun injects axe-core into the page and returns its violations.
func axeRun(t *testing.T, ctx context.Context, axe string) []axeViolation {
	t.Helper()
	if _, err := chromedp.Run(ctx, chromedp.Evaluate[bool](axe+";\ntrue")); err != nil {
		t.Fatalf("inject axe: %v", err)
	}
	raw, err := chromedp.Run(ctx, chromedp.Evaluate[string](`axe.run(document, {runOnly: {type: "tag", values: ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "best-practice"]}}).then(r => JSON.stringify(r.violations))`, chromedp.EvalAwaitPromise))
	if err != nil {
		t.Fatalf("axe: %v", err)
	}
	var vs []axeViolation
	if err := json.Unmarshal([]byte(raw), &vs); err != nil {
		t.Fatalf("axe result: %v", err)
	}
	return vs
}

// TestViewerAccessible runs axe-core in headless Chromium on a running
// game's page and a finished game's page in every language: no violation
// of impact serious or critical. On the running page it also checks that
// a move made meanwhile is announced in the live region, that the board's
// text alternative follows the ply shown, and that a control reached with
// the keyboard shows its focus.
func TestViewerAccessible(t *testing.T) {
	if testing.Short() {
		t.Skip("long tier: drives a headless browser")
	}
	axe, err := os.ReadFile(axePath)
	if err != nil {
		needed(t, "axe-core is not installed (npm ci --prefix bot/web/testdata/a11y)")
	}
	ctx := a11yBrowser(t)
	f := newFixture(t)
	running := f.seed(t, 6, false)
	finished := f.seed(t, 6, true)
	// Both colour schemes: the page has a dark one (prefers-color-scheme),
	// and contrast must hold in each.
	for _, scheme := range []string{"light", "dark"} {
		if _, err := chromedp.Call(ctx, emulation.SetEmulatedMedia, emulation.SetEmulatedMediaParams{
			Features: []*emulation.MediaFeature{{Name: "prefers-color-scheme", Value: scheme}}}); err != nil {
			t.Fatal(err)
		}
		for _, g := range []struct {
			name string
			s    *seeded
		}{{"running", running}, {"finished", finished}} {
			for _, loc := range i18n.Locales {
				url := f.srv.URL + "/g/" + g.s.token + "?lang=" + loc
				if err := chromedp.Do(ctx, chromedp.Navigate(url), chromedp.WaitReady("#pieces li")); err != nil {
					t.Fatalf("%s %s: %v", g.name, loc, err)
				}
				vs := axeRun(t, ctx, string(axe))
				for _, v := range vs {
					t.Logf("%s %s %s: axe %s (%s): %s, %d nodes", scheme, g.name, loc, v.ID, v.Impact, v.Help, len(v.Nodes))
					if v.Impact == "serious" || v.Impact == "critical" {
						t.Errorf("%s scheme, %s game, %s: %s violation %s: %s at %v", scheme, g.name, loc, v.Impact, v.ID, v.Help, v.Nodes)
					}
				}
				t.Logf("%s scheme, %s game, %s: %d violations in all", scheme, g.name, loc, len(vs))
			}
		}
	}

	// The check can fail: an image without a text alternative is a
	// critical violation for this axe.
	if _, err := chromedp.Run(ctx, chromedp.Evaluate[bool](`(function(){var i=document.createElement("img");i.src="/x.png";document.body.appendChild(i);return true})()`)); err != nil {
		t.Fatal(err)
	}
	caught := false
	for _, v := range axeRun(t, ctx, string(axe)) {
		caught = caught || v.ID == "image-alt" && v.Impact == "critical"
	}
	if !caught {
		t.Error("axe did not report an image without alt text: the check cannot fail")
	}

	// Live: a move is announced; the text alternative follows.
	url := f.srv.URL + "/g/" + running.token + "?lang=en"
	if err := chromedp.Do(ctx, chromedp.Navigate(url), chromedp.WaitReady("#pieces li")); err != nil {
		t.Fatal(err)
	}
	before, err := chromedp.Run(ctx, chromedp.Evaluate[string](`document.getElementById("pieces").innerText`))
	if err != nil {
		t.Fatal(err)
	}
	altBefore, err := chromedp.Run(ctx, chromedp.Evaluate[string](`document.getElementById("board").alt`))
	if err != nil {
		t.Fatal(err)
	}
	wait := func(what, cond string) {
		t.Helper()
		for deadline := time.Now().Add(2 * time.Minute); time.Now().Before(deadline); time.Sleep(50 * time.Millisecond) { // a hang guard, not a budget
			if ok, err := chromedp.Run(ctx, chromedp.Evaluate[bool](cond)); err == nil && ok {
				return
			}
		}
		t.Fatalf("%s: %s never true", what, cond)
	}
	wait("live connection", `document.getElementById("viewer").dataset.connected === "1"`)
	f.move(t, running)
	wait("announcement", `document.getElementById("announce").textContent.includes("to move")`)
	wait("text alternative in step", `document.getElementById("pieces").innerText !== `+jsString(before))
	announce, err := chromedp.Run(ctx, chromedp.Evaluate[string](`document.getElementById("announce").textContent`))
	if err != nil {
		t.Fatal(err)
	}
	alt, err := chromedp.Run(ctx, chromedp.Evaluate[string](`document.getElementById("board").alt`))
	if err != nil {
		t.Fatal(err)
	}
	if alt == altBefore || !strings.Contains(alt, "Last move: ") {
		t.Errorf("image alt after the live move: %q", alt)
	}
	if !strings.Contains(announce, "tank") || !strings.Contains(announce, "to move") {
		t.Errorf("announced %q: want the move in words and the status", announce)
	}
	t.Logf("announced: %q", announce)

	// Keyboard: Tab reaches a control and its focus is drawn.
	if err := chromedp.Do(ctx, chromedp.KeyEvent(kb.Tab), chromedp.KeyEvent(kb.Tab)); err != nil {
		t.Fatal(err)
	}
	outline, err := chromedp.Run(ctx, chromedp.Evaluate[string](`(function(){var e=document.activeElement;return e.tagName+" "+getComputedStyle(e).outlineStyle})()`))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(outline, "A ") || strings.HasSuffix(outline, " none") {
		t.Errorf("focused control after Tab: %q, want a link with an outline", outline)
	}
}

func jsString(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}
