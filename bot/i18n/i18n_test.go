package i18n

import (
	"regexp"
	"sort"
	"strings"
	"testing"

	"github.com/tankbot/tankbot/engine/camelot"
	"github.com/tankbot/tankbot/engine/games"
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
			e, _ := Lookup(English, k)
			if a, b := placeholders(e), placeholders(s); len(a) != len(b) {
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
		for _, d := range games.Descriptors() {
			for code, english := range d.Messages {
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

// The catalog files parse, and no key is defined twice in a language
// (within a file or across its files, or over a text kept in code).
func TestCatalogFilesClean(t *testing.T) {
	if err := Check(); err != nil {
		t.Fatal(err)
	}
	into := map[string]message{}
	if err := parseFile([]byte(`{"a": "x", "b": "y", "a": "z"}`), into); err == nil || !strings.Contains(err.Error(), `"a" defined twice`) {
		t.Errorf("a duplicate key in a file: %v", err)
	}
	into = map[string]message{"a": {}}
	if err := parseFile([]byte(`{"a": "x"}`), into); err == nil {
		t.Error("a key of another file of the language defined again: no error")
	}
	for _, bad := range []string{`{"a": {"one": "x"}}`, `{"a": {"several": "x", "other": "y"}}`, `{"a": 3}`, `["a"]`} {
		if err := parseFile([]byte(bad), map[string]message{}); err == nil {
			t.Errorf("%s: no error", bad)
		}
	}
}

// Plural messages take the form of their language's CLDR rule: English
// and Portuguese say "1 game" (Portuguese also "0 partida"), Thai has one
// form; every language gives a plural message the forms its rule has.
func TestPlurals(t *testing.T) {
	for _, c := range []struct{ loc, n, want string }{
		{English, "1", "1 game"}, {English, "0", "0 games"}, {English, "2", "2 games"},
		{Portuguese, "1", "1 partida"}, {Portuguese, "0", "0 partida"}, {Portuguese, "5", "5 partidas"},
		{Thai, "1", "1 เกม"},
	} {
		if got := T(c.loc, "ratings.leaderboard.line", "1", "@a", "1500", c.n); !strings.HasSuffix(got, " "+c.want) {
			t.Errorf("%s %s: %q, want … %s", c.loc, c.n, got, c.want)
		}
	}
	if got := T(English, "clock.corr.days", "1"); got != "1 day per move" {
		t.Errorf("1 day: %q", got)
	}
	for _, loc := range Locales {
		for _, k := range Keys(English) {
			if len(Forms(English, k)) > 1 && loc != Thai && len(Forms(loc, k)) < 2 {
				t.Errorf("%s %q: English has plural forms, %s gives one", loc, k, loc)
			}
		}
	}
}
