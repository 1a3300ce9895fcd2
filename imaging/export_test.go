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
