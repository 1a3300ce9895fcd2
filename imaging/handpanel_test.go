package imaging_test

import (
	"testing"

	"github.com/tankbot/tankbot/bot/i18n"
	"github.com/tankbot/tankbot/imaging"
)

// The Gungi hand panel's words fit their boxes in every language: the
// longest title (with READY) and totals leave the box's edge columns
// clear of ink.
func TestGungiHandPanelTextFits(t *testing.T) {
	for _, lang := range i18n.Locales {
		if cut := imaging.HandPanelOverflow(i18n.Text(lang)); len(cut) > 0 {
			t.Errorf("%s: cut off at the panel's edge: %q", lang, cut)
		}
	}
}
