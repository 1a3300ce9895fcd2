package tournament

import (
	"go/parser"
	"go/token"
	"os"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// The package stays pure: the standard library's errors, fmt, slices and
// time only (no I/O, no store, no engine).
func TestPureImports(t *testing.T) {
	allowed := []string{"errors", "fmt", "slices", "time"}
	files, _ := os.ReadDir(".")
	n := 0
	for _, f := range files {
		if !strings.HasSuffix(f.Name(), ".go") || strings.HasSuffix(f.Name(), "_test.go") {
			continue
		}
		n++
		af, err := parser.ParseFile(token.NewFileSet(), f.Name(), nil, parser.ImportsOnly)
		if err != nil {
			t.Fatal(err)
		}
		for _, im := range af.Imports {
			p, _ := strconv.Unquote(im.Path.Value)
			if !slices.Contains(allowed, p) {
				t.Errorf("%s imports %s", f.Name(), p)
			}
		}
	}
	if n < 4 {
		t.Fatalf("found %d source files", n)
	}
}
