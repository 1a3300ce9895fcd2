package main

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tankbot/tankbot/engine/games"
)

// The engine protocol answers each request line with one reply line: a
// legal move of the position, or an error that names what is wrong.
func TestEngineProtocol(t *testing.T) {
	r, _ := games.Lookup("camelot")
	start, _ := r.Start("")
	req, _ := json.Marshal(engineRequest{Game: "camelot", Position: start.Encode(), History: nil, Level: 3, Seed: 7, Nodes: 500})
	in := strings.Join([]string{string(req), "{not json", `{"game":"chess","position":"x","level":3}`, `{"game":"camelot","position":"bad","level":3}`, ""}, "\n")
	var out bytes.Buffer
	if err := serveEngine(strings.NewReader(in), &out); err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(out.String()), "\n")
	if len(lines) != 4 {
		t.Fatalf("%d replies, want 4:\n%s", len(lines), out.String())
	}
	var rep engineReply
	if err := json.Unmarshal([]byte(lines[0]), &rep); err != nil || rep.Error != "" || rep.Move == "" {
		t.Fatalf("reply %q: %v", lines[0], err)
	}
	m, err := start.ParseMove(rep.Move)
	if err == nil {
		_, err = start.Play(m)
	}
	if err != nil {
		t.Errorf("move %q: %v", rep.Move, err)
	}
	for i, want := range []string{"bad request", "chess", "position"} {
		var e engineReply
		if err := json.Unmarshal([]byte(lines[i+1]), &e); err != nil || !strings.Contains(e.Error, want) || e.Move != "" {
			t.Errorf("reply %d %q: want an error about %q", i+2, lines[i+1], want)
		}
	}
}

// ext:N:PATH specs: a wrong one is refused by name.
func TestExtPlayerSpec(t *testing.T) {
	for _, bad := range []string{"ext:", "ext:9:/bin/x", "ext:3", "ext:3:", "ext:x:/bin/x"} {
		if _, ok, err := parseExtPlayer(bad, 0, 0); !ok || err == nil {
			t.Errorf("%q: ok %v, err %v", bad, ok, err)
		}
	}
	p, ok, err := parseExtPlayer("ext:5:/opt/old/tankbot", 0, 0)
	if !ok || err != nil || p.Name() != "ext:5" || p.path != "/opt/old/tankbot" || p.level != 5 {
		t.Errorf("ext:5:/opt/old/tankbot: %+v, %v, %v", p, ok, err)
	}
	if _, ok, _ := parseExtPlayer("ai:3", 0, 0); ok {
		t.Error("ai:3 taken for an external player")
	}
}

// The arena plays this build against an external build (here the same
// binary) over the engine protocol, and names it ext:N in the records.
func TestArenaExtPlayer(t *testing.T) {
	bin := tankbotBinary(t) // long tier
	dir := t.TempDir()
	var out, errb bytes.Buffer
	code := runMain([]string{"arena", "--game", "gungi", "--white", "ai:1", "--black", "ext:1:" + bin, "--games", "2", "--maxply", "80", "--seed", "3", "--quiet", "--records", dir}, &out, &errb)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errb.String())
	}
	// Both sides' searches are summed: the external one from its replies.
	if !strings.Contains(out.String(), "gungi: ai:1 vs ext:1, 2 games") || !strings.Contains(out.String(), "search ai:1    mean depth 1.00") ||
		!strings.Contains(out.String(), "search ext:1   mean depth 1.00") {
		t.Errorf("output:\n%s", out.String())
	}
	rec, err := os.ReadFile(filepath.Join(dir, "gungi-seed3-2.rec"))
	if err != nil || !strings.Contains(string(rec), `[White "ext:1"]`) {
		t.Errorf("record: %v\n%s", err, rec)
	}
}
