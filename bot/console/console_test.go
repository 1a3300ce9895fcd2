package console

import (
	"bytes"
	"context"
	"image/png"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/tankbot/tankbot/bot"
	"github.com/tankbot/tankbot/engine"
	"github.com/tankbot/tankbot/engine/tank"
)

// duel is an 8×8 custom map with a lone CLT a side: d1 (White) and e8.
const duel = "....cs.../......../......../......../......../......../......../...Cn.... w 1"

type session struct {
	t   *testing.T
	c   *Console
	out *bytes.Buffer
	dir string
	ctx context.Context
}

func newSession(t *testing.T) *session {
	t.Helper()
	dir := t.TempDir()
	st, err := bot.OpenSQLite(filepath.Join(dir, "play.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	out := &bytes.Buffer{}
	clk := NewClock(time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC))
	c := &Console{Out: out, Clock: clk, PNGDir: dir, Guild: "g", Channel: "table", Locale: "en"}
	c.Bot = bot.New(bot.Config{}, st, clk, c, nil)
	return &session{t: t, c: c, out: out, dir: dir, ctx: context.Background()}
}

// run feeds lines through Run (the real loop) and returns what it printed.
func (s *session) run(lines ...string) string {
	s.t.Helper()
	s.out.Reset()
	if err := s.c.Run(s.ctx, strings.NewReader(strings.Join(lines, "\n"))); err != nil {
		s.t.Fatal(err)
	}
	return s.out.String()
}

var imageLine = regexp.MustCompile(`(?m)^image: (.+\.png)$`)

// checkPNGs decodes every board image the output names.
func (s *session) checkPNGs(out string) int {
	s.t.Helper()
	ms := imageLine.FindAllStringSubmatch(out, -1)
	for _, m := range ms {
		f, err := os.Open(m[1])
		if err != nil {
			s.t.Fatal(err)
		}
		img, err := png.Decode(f)
		f.Close()
		if err != nil {
			s.t.Fatalf("%s: %v", m[1], err)
		}
		if b := img.Bounds(); b.Dx() < 64 || b.Dy() < 64 {
			s.t.Fatalf("%s: tiny image %v", m[1], b)
		}
	}
	return len(ms)
}

// playOut drives a hot-seat game by typing bare moves chosen by choose
// from the real engine position, until the game ends or maxPly.
func (s *session) playOut(start engine.Position, choose func(p engine.Position) string, maxPly int) (string, engine.Position) {
	s.t.Helper()
	var all strings.Builder
	pos := start
	for ply := 0; ply < maxPly && !pos.Status().Over(); ply++ {
		n := choose(pos)
		out := s.run(n)
		all.WriteString(out)
		if !strings.Contains(out, "played "+n) {
			s.t.Fatalf("move %q not played:\n%s", n, out)
		}
		m, err := pos.ParseMove(n)
		if err != nil {
			s.t.Fatal(err)
		}
		if pos, err = pos.Play(m); err != nil {
			s.t.Fatal(err)
		}
	}
	return all.String(), pos
}

func has(p engine.Position, kind string) bool {
	for _, a := range p.Announcements() {
		if a.Kind == kind {
			return true
		}
	}
	return false
}

// pick returns the first move whose result satisfies ok, in order of the
// preference functions, else the first move that does not end the game.
func pick(p engine.Position, prefs ...func(next engine.Position, note string) bool) string {
	for _, ok := range prefs {
		for _, m := range p.LegalMoves() {
			next, _ := p.Play(m)
			if ok(next, p.FormatMove(m)) {
				return p.FormatMove(m)
			}
		}
	}
	return p.FormatMove(p.LegalMoves()[0])
}

func TestConsoleCheckAndDestruction(t *testing.T) {
	s := newSession(t)
	if err := s.c.HotSeat(s.ctx, "tank", duel, "untimed"); err != nil {
		t.Fatal(err)
	}
	if out := s.out.String(); !strings.Contains(out, "Game #") || s.checkPNGs(out) != 1 {
		t.Fatalf("start:\n%s", out)
	}
	start, err := tank.Rules.Decode(duel)
	if err != nil {
		t.Fatal(err)
	}
	checked := false
	out, end := s.playOut(start, func(p engine.Position) string {
		if p.Turn() == engine.Black { // a passive Black: never threatens
			return pick(p, func(n engine.Position, _ string) bool { return !n.Status().Over() && !has(n, engine.AnnounceCheck) })
		}
		if checked { // CHECK was announced: now destroy
			return pick(p,
				func(n engine.Position, _ string) bool { return n.Status().Reason == tank.ReasonCLTDestroyed },
				func(n engine.Position, _ string) bool { return has(n, engine.AnnounceCheck) })
		}
		mv := pick(p, func(n engine.Position, _ string) bool { return !n.Status().Over() && has(n, engine.AnnounceCheck) })
		m, _ := p.ParseMove(mv)
		next, _ := p.Play(m)
		checked = has(next, engine.AnnounceCheck)
		return mv
	}, 40)
	if !strings.Contains(out, "CHECK: ") || end.Status().Reason != tank.ReasonCLTDestroyed || !strings.Contains(out, "White (white) wins — the CLT was destroyed") {
		t.Fatalf("no check and destruction (status %+v):\n%s", end.Status(), out)
	}
	if n := s.checkPNGs(out); n < 3 {
		t.Fatalf("only %d boards", n)
	}
	hist := s.run("white: /history")
	if !strings.Contains(hist, "+\n") && !strings.Contains(hist, "+ ") || !strings.Contains(hist, "1-0") {
		t.Fatalf("history lacks the check mark or result:\n%s", hist)
	}
}

func TestConsoleEscape(t *testing.T) {
	s := newSession(t)
	if err := s.c.HotSeat(s.ctx, "tank", duel, "untimed"); err != nil {
		t.Fatal(err)
	}
	start, _ := tank.Rules.Decode(duel)
	rank := func(note string) int { // destination rank of "D1 > D5N"
		_, to, _ := strings.Cut(note, ">")
		d := strings.TrimLeft(strings.TrimSpace(to), "ABCDEFGHIJKLMNOPQRSTUVWXYZ")
		n := 0
		for _, ch := range d {
			if ch < '0' || ch > '9' {
				break
			}
			n = n*10 + int(ch-'0')
		}
		return n
	}
	out, end := s.playOut(start, func(p engine.Position) string {
		if p.Turn() == engine.Black {
			return pick(p, func(n engine.Position, _ string) bool { return !n.Status().Over() && !has(n, engine.AnnounceCheck) })
		}
		best, bestRank := "", -1
		for _, m := range p.LegalMoves() {
			next, _ := p.Play(m)
			note := p.FormatMove(m)
			switch {
			case next.Status().Reason == tank.ReasonEscape:
				return note
			case has(next, engine.AnnounceEscape) && bestRank < 100:
				best, bestRank = note, 100
			case rank(note) > bestRank:
				best, bestRank = note, rank(note)
			}
		}
		return best
	}, 30)
	if !strings.Contains(out, "ESCAPE: ") || end.Status().Reason != tank.ReasonEscape || !strings.Contains(out, "the CLT escaped") {
		t.Fatalf("no escape (status %+v):\n%s", end.Status(), out)
	}
	s.checkPNGs(out)
}

func TestConsoleFlagResignDraw(t *testing.T) {
	s := newSession(t)
	out := s.run(
		"alice: /challenge bob clock:10m color:white",
		"bob: /accept",
		"alice: /move "+firstMove(t, ""),
		"wait 11m",
	)
	if !strings.Contains(out, "bob ran out of time") || !strings.Contains(out, "White (alice) wins — on time") {
		t.Fatalf("flag:\n%s", out)
	}
	s.checkPNGs(out)

	out = s.run(
		"alice: /challenge bob color:black",
		"bob: /accept",
		"alice: /resign",
		"alice: click g:2:0:resignyes",
	)
	if !strings.Contains(out, "alice resigned") || !strings.Contains(out, "White (bob) wins — by resignation") {
		t.Fatalf("resign:\n%s", out)
	}

	out = s.run(
		"alice: /challenge carol map:basic20 color:white",
		"carol: /accept",
		"alice: /draw",
		"carol: /draw",
	)
	if !strings.Contains(out, "carol accepted the draw offer") || !strings.Contains(out, "Draw — by agreement") || !strings.Contains(out, "45 min") {
		t.Fatalf("draw:\n%s", out)
	}
	if s.checkPNGs(out) < 2 {
		t.Fatal("no boards")
	}
}

func TestConsoleClicksAndErrors(t *testing.T) {
	s := newSession(t)
	out := s.run("alice: /challenge bob color:black")
	m := regexp.MustCompile(`\[Accept\] (c:\d+:accept)`).FindStringSubmatch(out)
	if m == nil {
		t.Fatalf("no accept button:\n%s", out)
	}
	out = s.run("bob: click " + m[1])
	if !strings.Contains(out, "Game #") {
		t.Fatalf("click accept:\n%s", out)
	}
	out = s.run("carol: /move e1", "alice /move", "/nonsense", "zed: click g:x", "wait soon")
	for _, want := range []string{"only carol", "(only bob) Illegal move", "(only zed) Unknown command", "error:", "bad duration"} {
		if !strings.Contains(out, want) {
			t.Errorf("missing %q in:\n%s", want, out)
		}
	}
}

func firstMove(t *testing.T, tfen string) string {
	t.Helper()
	p, err := tank.Rules.Start("basic16")
	if tfen != "" {
		p, err = tank.Rules.Decode(tfen)
	}
	if err != nil {
		t.Fatal(err)
	}
	return p.FormatMove(p.LegalMoves()[0])
}

func TestTextBoard(t *testing.T) {
	got := TextBoard("tank", duel)
	if !strings.Contains(got, "cs") || !strings.Contains(got, "Cn") || strings.Count(got, "\n") != 10 {
		t.Fatalf("text board:\n%s", got)
	}
}

func FuzzParse(f *testing.F) {
	for _, s := range []string{"/challenge bob map:a b c", "click c:1:accept x", "/move e3 > e5n game:2", "/", "submit", "/x k: v:"} {
		f.Add(s)
	}
	c := &Console{}
	f.Fuzz(func(t *testing.T, line string) {
		if strings.TrimSpace(line) == "" {
			return
		}
		_, _ = c.parse("who", line)
	})
}

// Gungi towers and lower-case pieces that look like tank facings ("n" is a
// Black Spy) are one square each.
func TestTextBoardGungi(t *testing.T) {
	got := TextBoard("gungi", "m......nn/9/9/9/..(GGY)....../9/9/9/4M4 b wb - 16")
	if !strings.Contains(got, "   n   n\n") || !strings.Contains(got, "(GGY)") {
		t.Fatalf("gungi text board:\n%s", got)
	}
	if strings.Count(got, "(GGY)") != 1 || !strings.Contains(got, "  m   .") {
		t.Fatalf("gungi rank split wrongly:\n%s", got)
	}
}

// The console prints a move's answer at once: the fallback ping the move
// queued (for a transport that may lose it) is cancelled, never printed
// later as a second board.
func TestConsoleNoLatePings(t *testing.T) {
	s := newSession(t)
	s.run("alice: /challenge bob clock:10m color:white", "bob: /accept")
	out := s.run("alice: /move " + firstMove(t, ""))
	if n := strings.Count(out, "@bob"); n != 1 {
		t.Fatalf("the move pinged bob %d times:\n%s", n, out)
	}
	out = s.run("wait 1m", "wait 1m")
	if strings.Contains(out, "@bob") || strings.Contains(out, "==") {
		t.Fatalf("a late ping after the move was printed:\n%s", out)
	}
}
