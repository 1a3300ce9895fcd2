package i18n

import (
	"regexp"
	"sort"
	"testing"

	"github.com/tankbot/tankbot/engine/camelot"
	"github.com/tankbot/tankbot/engine/gungi"
	"github.com/tankbot/tankbot/engine/tank"
)

var placeholder = regexp.MustCompile(`\{\d+\}`)

func placeholders(s string) []string {
	p := placeholder.FindAllString(s, -1)
	sort.Strings(p)
	out := p[:0]
	for i, x := range p {
		if i == 0 || p[i-1] != x {
			out = append(out, x)
		}
	}
	return out
}

// Every English key exists in every language with the same placeholders,
// and no language has keys English lacks.
func TestCatalogComplete(t *testing.T) {
	for _, loc := range Locales[1:] {
		for _, k := range Keys(English) {
			s, ok := Lookup(loc, k)
			if !ok {
				t.Errorf("%s: missing key %q", loc, k)
				continue
			}
			if a, b := placeholders(en[k]), placeholders(s); len(a) != len(b) {
				t.Errorf("%s %q: placeholders %v, English has %v", loc, k, b, a)
			}
		}
		for _, k := range Keys(loc) {
			if !Has(k) {
				t.Errorf("%s: key %q is not in English", loc, k)
			}
		}
	}
}

// Every rule error code of every engine is translated.
func TestEngineCodesTranslated(t *testing.T) {
	for _, loc := range Locales {
		for _, msgs := range []map[string]string{tank.Messages, camelot.Messages, gungi.Messages} {
			for code, english := range msgs {
				s, ok := Lookup(loc, "err."+code)
				if !ok {
					t.Errorf("%s: engine code %q has no translation", loc, code)
					continue
				}
				if a, b := placeholders(english), placeholders(s); len(a) != len(b) {
					t.Errorf("%s %q: placeholders %v, engine has %v", loc, code, b, a)
				}
			}
		}
	}
}

func TestNormalize(t *testing.T) {
	for in, want := range map[string]string{"en-US": English, "en-GB": English, "th": Thai, "pt-BR": Portuguese, "PT-br": Portuguese, "de": "", "": ""} {
		if got := Normalize(in); got != want {
			t.Errorf("Normalize(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestTFallbacksAndPseudo(t *testing.T) {
	if got := T("de", "btn.accept"); got != "Accept" {
		t.Errorf("unknown locale: %q", got)
	}
	if got := T(Portuguese, "resign.done", "ana"); got != "ana abandonou." {
		t.Errorf("pt fill: %q", got)
	}
	if got := T(Pseudo, "resign.done", "ana"); got != "⟦ana resigned.⟧" {
		t.Errorf("pseudo: %q", got)
	}
	for s, want := range map[string]bool{
		"⟦a⟧":              true,
		"⟦a⟧\n**⟦b⟧**":     true,
		"⟦a ⟦b⟧ c⟧ (⟦d⟧)":  true,
		"⟦a⟧ raw":          false,
		"raw":              false,
		"⟦unclosed":        false,
		"":                 true,
		"⟦a⟧ e3 > e5n ⟦b⟧": false,
	} {
		if got := Wrapped(s); got != want {
			t.Errorf("Wrapped(%q) = %v, want %v", s, got, want)
		}
	}
}

// The keys the bot builds at run time from engine values exist.
func TestDynamicKeys(t *testing.T) {
	keys := []string{"result.1-0", "result.0-1", "result.1/2-1/2", "result.*",
		"announce.check", "announce.escape", "announce.must-capture", "announce.must-leave",
		"reason.resignation", "reason.agreement", "reason.timeout", "reason.aborted", "reason.repetition", "reason.no-moves",
		"reason." + string(tank.ReasonCLTDestroyed), "reason." + string(tank.ReasonEscape),
		"reason." + string(camelot.ReasonCastle), "reason." + string(camelot.ReasonAllCaptured), "reason." + string(camelot.ReasonInsufficient),
		"reason." + string(gungi.ReasonCheckmate), "reason." + string(gungi.ReasonStalemate),
		"color.white", "color.black", "color.random", "rules.tank", "rules.camelot", "rules.gungi"}
	for _, k := range keys {
		if !Has(k) {
			t.Errorf("missing key %q", k)
		}
	}
}
