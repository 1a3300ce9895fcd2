package imaging_test

import (
	"testing"

	"github.com/tankbot/tankbot/bot/i18n"
	"github.com/tankbot/tankbot/engine"
	"github.com/tankbot/tankbot/imaging"
)

// TestGoldenLanguages: the images worded by the bot's catalog in each
// language, with the header pills, the hands and draft state and a result
// the position alone does not know (a resignation). Thai is shaped: look at
// testdata/golden/lang_*_th.png (and the 400px/ copies) when they change.
func TestGoldenLanguages(t *testing.T) {
	resigned := engine.Win(engine.Black, engine.ReasonResignation)
	scenes := []struct {
		name, scene string
		outcome     *engine.Outcome
	}{
		{"checkescape", "checkescape", nil},
		{"resigned", "midgame", &resigned},
		{"gungi_draft", "draft_mid", nil},
		{"camelot_capture", "camelot_charge", nil},
	}
	for _, lang := range []string{"en", "th", "pt-BR"} {
		for _, sc := range scenes {
			name := "lang_" + sc.name + "_" + lang
			t.Run(name, func(t *testing.T) {
				pos, opt := imaging.Scenario(t, sc.scene)
				opt.Text = i18n.Text(lang)
				opt.Outcome = sc.outcome
				imaging.CheckGolden(t, name, pos, opt)
			})
		}
	}
}

// go test ./imaging -run '^$' -bench RenderLang: the 20×20 board with its
// overlays (CHECK and ESCAPE routes, the header pills) worded in each
// language; the shaped text is cached like every other tile.
func BenchmarkRenderLang(b *testing.B) {
	for _, lang := range []string{"en", "th", "pt-BR"} {
		pos, opt := imaging.Scenario(b, "checkescape")
		opt.Text = i18n.Text(lang)
		b.Run("basic20-"+lang, func(b *testing.B) { imaging.BenchRender(b, pos, opt) })
	}
}
