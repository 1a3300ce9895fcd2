package imaging

import (
	"testing"

	"github.com/tankbot/tankbot/engine"
)

// Hooks for the external tests (lang_test.go): they word the images with
// the bot's catalog, which imports this package, so they cannot live in it.

// Scenario is a golden scenario of any game by its golden name.
func Scenario(t testing.TB, name string) (engine.Position, Options) {
	t.Helper()
	for _, sc := range scenarios {
		if sc.name == name {
			return sc.position(t)
		}
	}
	for _, sc := range camScenes {
		if sc.name == name {
			return sc.position(t)
		}
	}
	return gungiScenario(t, name)
}

// CheckGolden renders pos and compares it with testdata/golden/<name>.png
// (and rewrites it, with its 400 px copy, under -update).
func CheckGolden(t *testing.T, name string, pos engine.Position, opt Options) {
	t.Helper()
	got, b := render(t, pos, opt)
	checkGolden(t, name, got, b)
}

// BenchRender is the render benchmark loop (CPU time and PNG size).
var BenchRender = benchRender

// HandPanelOverflow draws the longest texts of a Gungi hand panel worded by
// text (the title of either side with READY, the totals with the largest
// counts) and returns each whose ink reaches the edge of its box: cut off.
func HandPanelOverflow(text func(key string, args ...string) string) []string {
	wd := words{text: text}
	var cut []string
	inkAtEdge := func(tl *tile, bg uint8) bool {
		for y := 0; y < tl.h; y++ {
			if tl.pix[y*tl.w] != bg || tl.pix[y*tl.w+tl.w-1] != bg {
				return true
			}
		}
		return false
	}
	for _, s := range []engine.Side{engine.White, engine.Black} {
		for _, ready := range []string{"", wd.t("image.ready")} {
			name := wd.t("image.hand", wd.side(s))
			if inkAtEdge(handTitle(titleKey{side: s, name: name, ready: ready}), gPanel) {
				cut = append(cut, name+" "+ready)
			}
		}
	}
	for _, counts := range [][2]string{{"38", "26"}, {"38", "0"}, {"0", "26"}} {
		f := wd.t("image.hand-count", counts[0], counts[1])
		if inkAtEdge(handFooter(f), gPanel) {
			cut = append(cut, f)
		}
	}
	return cut
}
