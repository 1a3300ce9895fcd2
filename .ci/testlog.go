//go:build ignore

// testlog reads `go test -json` on standard input and prints what plain
// `go test` prints (a line per package; the whole output of a failed test,
// build errors), then the slowest tests. With -long FILE it writes the
// tests the run skipped with "long tier:" (testing.Short), one
// "package<TAB>TopLevelTest" a line: the long tier runs exactly those. A
// test that said "long tier (no -race):" instead (pure engine work, whose
// concurrency another test covers under the race detector) gets a third
// field, "no-race": the long tier runs it without the race detector.
// With -times FILE it writes every package's and top-level test's elapsed
// seconds, for docs/testing.md.
//
//	go test -short -json ./... | go run .ci/testlog.go -long long.txt
//
// It exits 1 when a test, a package or a build failed.
package main

import (
	"bufio"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"sort"
	"strings"
)

type event struct {
	Action     string
	Package    string
	ImportPath string
	Test       string
	Elapsed    float64
	Output     string
}

type timed struct {
	name    string
	elapsed float64
}

func main() {
	longFile := flag.String("long", "", "append the tests skipped for the long tier to this file")
	timesFile := flag.String("times", "", "append package and test times to this file")
	slowest := flag.Int("slowest", 8, "print this many slowest tests")
	flag.Parse()

	buf := map[string][]string{} // package + test → output so far
	long := map[string]bool{}    // package TAB test → without the race detector
	var tests, pkgs []timed
	failed := false
	sc := bufio.NewScanner(os.Stdin)
	sc.Buffer(make([]byte, 1<<20), 64<<20)
	for sc.Scan() {
		line := sc.Bytes()
		var e event
		if err := json.Unmarshal(line, &e); err != nil || e.Action == "" {
			// Not an event (go vet or the go command's own output).
			fmt.Println(string(line))
			continue
		}
		key := e.Package + "\x00" + e.Test
		switch e.Action {
		case "build-output":
			fmt.Print(e.Output)
		case "build-fail":
			failed = true
		case "output":
			if e.Test == "" {
				if o := strings.TrimSpace(e.Output); o != "PASS" && o != "FAIL" && !strings.HasPrefix(o, "=== ") {
					fmt.Print(e.Output)
				}
				continue
			}
			buf[key] = append(buf[key], e.Output)
			if noRace := strings.Contains(e.Output, "long tier (no -race):"); noRace || strings.Contains(e.Output, "long tier:") {
				top, _, _ := strings.Cut(e.Test, "/")
				k := e.Package + "\t" + top
				long[k] = long[k] || noRace
			}
		case "fail":
			failed = true
			if e.Test != "" {
				fmt.Print(strings.Join(buf[key], ""))
			}
			fallthrough
		case "pass", "skip":
			delete(buf, key)
			switch {
			case e.Test == "":
				pkgs = append(pkgs, timed{e.Package, e.Elapsed})
			case !strings.Contains(e.Test, "/"):
				tests = append(tests, timed{e.Package + " " + e.Test, e.Elapsed})
			}
		}
	}
	if err := sc.Err(); err != nil {
		fmt.Fprintln(os.Stderr, "testlog:", err)
		failed = true
	}

	sort.SliceStable(tests, func(i, j int) bool { return tests[i].elapsed > tests[j].elapsed })
	if n := min(*slowest, len(tests)); n > 0 {
		fmt.Println("-- slowest tests:")
		for _, t := range tests[:n] {
			fmt.Printf("   %7.1fs %s\n", t.elapsed, t.name)
		}
	}
	var lines []string
	for l, noRace := range long {
		if noRace {
			l += "\tno-race"
		}
		lines = append(lines, l)
	}
	sort.Strings(lines)
	if len(lines) > 0 {
		fmt.Printf("-- %d tests skipped or sampled here run in full in the long tier (.ci/test --long):\n", len(lines))
		for _, l := range lines {
			fmt.Println("  ", strings.ReplaceAll(l, "\t", " "))
		}
	}
	if *longFile != "" {
		if err := appendLines(*longFile, lines); err != nil {
			fmt.Fprintln(os.Stderr, "testlog:", err)
			os.Exit(1)
		}
	}
	if *timesFile != "" {
		var lines []string
		for _, p := range pkgs {
			lines = append(lines, fmt.Sprintf("%.1f\t%s", p.elapsed, p.name))
		}
		for _, t := range tests {
			lines = append(lines, fmt.Sprintf("%.1f\t%s", t.elapsed, t.name))
		}
		if err := appendLines(*timesFile, lines); err != nil {
			fmt.Fprintln(os.Stderr, "testlog:", err)
			os.Exit(1)
		}
	}
	if failed {
		os.Exit(1)
	}
}

func appendLines(name string, lines []string) error {
	f, err := os.OpenFile(name, os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o644)
	if err != nil {
		return err
	}
	for _, l := range lines {
		fmt.Fprintln(f, l)
	}
	return f.Close()
}
