package bot_test

import (
	"bytes"
	"encoding/json"
	"io"
	"os/exec"
	"sort"
	"strconv"
	"strings"
	"testing"
)

// The allowed import directions of docs/architecture.md, read from the
// packages themselves (go list): a package imports only packages of a
// lower layer, the pure game package imports the engine and the clock
// arithmetic only, Discord's library stays in the adapter, only the router
// imports the command list and no command package imports another.
//
// Layers, top (0) to bottom; a package may import only packages of a
// greater layer number.
var layers = map[string]int{
	"cmd/tankbot":             0,
	"bot/discord":             1,
	"bot/console":             1,
	"bot":                     2,
	"bot/router":              3,
	"bot/commands":            4, // the list and, under it, one leaf package per command
	"bot/app":                 5,
	"bot/outbox":              6,
	"bot/web":                 6,
	"bot/tournament/director": 6,
	"bot/view":                7,
	"bot/renders":             7,
	"bot/metrics":             7,
	"bot/movepick":            7,
	"bot/game":                8,
	"bot/describe":            8,
	"bot/i18n":                9,
	"bot/names":               9,
	"bot/rating":              9,
	"bot/tournament":          9,
	"imaging":                 10,
	"store":                   10,
	"store/clock":             11,
	"engine":                  12,
}

const module = "github.com/tankbot/tankbot/"

// layerOf is the layer of a module package and the entry it falls under:
// its own, else its closest parent's (engine/tank is engine's; within one
// entry, such as the engine's games, the packages are that area's own
// business).
func layerOf(pkg string) (int, string, bool) {
	for p := pkg; p != "" && p != "."; {
		if l, ok := layers[p]; ok {
			return l, p, true
		}
		i := strings.LastIndex(p, "/")
		if i < 0 {
			break
		}
		p = p[:i]
	}
	return 0, "", false
}

type listed struct {
	ImportPath string
	Imports    []string
}

func goList(t *testing.T) []listed {
	t.Helper()
	cmd := exec.Command("go", "list", "-json", module+"...")
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	if err := cmd.Run(); err != nil {
		t.Fatalf("go list: %v\n%s", err, errb.String())
	}
	var pkgs []listed
	dec := json.NewDecoder(&out)
	for {
		var p listed
		if err := dec.Decode(&p); err == io.EOF {
			break
		} else if err != nil {
			t.Fatal(err)
		}
		p.ImportPath = strings.TrimPrefix(p.ImportPath, module)
		pkgs = append(pkgs, p)
	}
	return pkgs
}

func TestImportDirections(t *testing.T) {
	pkgs := goList(t)
	seen := map[string]bool{}
	for _, p := range pkgs {
		seen[p.ImportPath] = true
		from, area, layered := layerOf(p.ImportPath)
		for _, imp := range p.Imports {
			if imp == "github.com/bwmarrin/discordgo" && p.ImportPath != "bot/discord" {
				t.Errorf("%s imports discordgo: only the adapter (bot/discord) talks to Discord", p.ImportPath)
			}
			if !strings.HasPrefix(imp, module) {
				continue
			}
			imp = strings.TrimPrefix(imp, module)
			if p.ImportPath == "bot/game" && imp != "store/clock" && !strings.HasPrefix(imp, "engine") {
				t.Errorf("bot/game imports %s: the game package is pure (engine and store/clock only)", imp)
			}
			if imp == "bot/commands" && p.ImportPath != "bot/router" {
				t.Errorf("%s imports bot/commands: only the router reads the command list", p.ImportPath)
			}
			if strings.HasPrefix(p.ImportPath, "bot/commands/") && strings.HasPrefix(imp, "bot/commands") {
				t.Errorf("%s imports %s: a command package imports no other (shared use cases live in bot/app)", p.ImportPath, imp)
			}
			to, impArea, ok := layerOf(imp)
			if !layered || !ok || impArea == area {
				continue
			}
			if to <= from {
				t.Errorf("%s (layer %d) imports %s (layer %d): imports go down the layers only", p.ImportPath, from, imp, to)
			}
		}
	}
	// Every layer named above exists, so that a renamed package cannot
	// slip out of the rules.
	var missing []string
	for name := range layers {
		if !seen[name] {
			missing = append(missing, name)
		}
	}
	sort.Strings(missing)
	if len(missing) > 0 {
		t.Errorf("layers naming no package: %v", missing)
	}
}

// The package bot itself only wires: at most 10 files besides its tests.
func TestBotPackageIsSmall(t *testing.T) {
	cmd := exec.Command("go", "list", "-f", "{{len .GoFiles}}", ".")
	out, err := cmd.Output()
	if err != nil {
		t.Fatal(err)
	}
	n, err := strconv.Atoi(strings.TrimSpace(string(out)))
	if err != nil {
		t.Fatal(err)
	}
	if n > 10 {
		t.Errorf("package bot has %d non-test files, at most 10", n)
	}
}
