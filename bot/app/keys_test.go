package app

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/tankbot/tankbot/bot/i18n"
)

// Every catalog key written literally in the handlers (this package,
// the commands, the router, the views) exists.
func TestLiteralKeysExist(t *testing.T) {
	call := regexp.MustCompile(`(?:\.[tT]|[rR]efuse|i18n\.T\(\w+|tFor\(ctx, [^,]+)\(?,? ?"([a-z][a-z0-9-]*\.[a-z0-9.*/-]+)"`)
	files, _ := filepath.Glob("*.go")
	// The command packages, the router and the views above and below.
	for _, dir := range []string{"../commands/*/*.go", "../router/*.go", "../view/*.go"} {
		more, _ := filepath.Glob(dir)
		files = append(files, more...)
	}
	n := 0
	for _, f := range files {
		if strings.HasSuffix(f, "_test.go") {
			continue
		}
		src, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range call.FindAllStringSubmatch(string(src), -1) {
			n++
			if !i18n.Has(m[1]) {
				t.Errorf("%s: key %q is not in the catalog", f, m[1])
			}
		}
	}
	if n < 50 {
		t.Fatalf("only %d keys found: the pattern is broken", n)
	}
}
