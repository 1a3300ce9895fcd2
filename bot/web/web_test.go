package web

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"image/gif"
	"image/png"
	"io"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"regexp"
	"runtime"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/tankbot/tankbot/engine"
	"github.com/tankbot/tankbot/engine/games"
	recfile "github.com/tankbot/tankbot/engine/record"
	"github.com/tankbot/tankbot/store"
	"github.com/tankbot/tankbot/store/storetest"
)

// fixture is a real SQLite store with a viewer over it on a test server.
type fixture struct {
	st  *store.Store
	v   *Server
	srv *httptest.Server
}

func newFixture(t testing.TB) *fixture {
	t.Helper()
	st, err := store.Open(context.Background(), filepath.Join(t.TempDir(), "tankbot.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	v := New(st, Options{Poll: 100 * time.Millisecond})
	srv := httptest.NewServer(v.Handler())
	t.Cleanup(func() { v.Close(); srv.Close() })
	return &fixture{st: st, v: v, srv: srv}
}

// seeded is a game in the store and its token.
type seeded struct {
	id    int64
	token string
	pos   engine.Position // current
	ply   int
}

// seed creates a Tank Chess game between Alice and Bob in guild g1 with
// plies moves (fewer if the game ends first), finished when finish.
func (f *fixture) seed(t testing.TB, plies int, finish bool) *seeded {
	t.Helper()
	return f.seedKind(t, "tank", plies, finish)
}

// seedKind is seed for any game.
func (f *fixture) seedKind(t testing.TB, kind string, plies int, finish bool) *seeded {
	t.Helper()
	ctx := context.Background()
	rules, err := games.Lookup(kind)
	if err != nil {
		t.Fatal(err)
	}
	pos, err := rules.Start(rules.Variants()[0].Name)
	if err != nil {
		t.Fatal(err)
	}
	// As the bot does: the game keeps the names the players had when it
	// began; their profiles (players) hold settings, not names.
	for _, id := range []string{"u1", "u2"} {
		if err := f.st.PutPlayer(ctx, store.Player{ID: id, Locale: "en"}); err != nil {
			t.Fatal(err)
		}
	}
	g, err := f.st.CreateGame(ctx, store.Game{Kind: kind, Variant: rules.Variants()[0].Name, Guild: "g1",
		Channel: "c" + time.Now().Format("150405.000000000"), Players: [2]string{"u1", "u2"}, Names: [2]string{"Alice", "Bob"},
		Start: pos.Encode(), Clock: "none"})
	if err != nil {
		t.Fatal(err)
	}
	s := &seeded{id: g.ID, pos: pos}
	for s.ply < plies && !s.pos.Status().Over() {
		f.move(t, s)
	}
	if finish {
		if err := f.st.FinishGame(ctx, g.ID, s.ply, store.Outcome{Result: "1-0", Reason: "resignation"}); err != nil {
			t.Fatal(err)
		}
	}
	if s.token, err = f.st.WebToken(ctx, g.ID); err != nil {
		t.Fatal(err)
	}
	return s
}

// move plays one legal move (a fixed choice) into the store.
func (f *fixture) move(t testing.TB, s *seeded) {
	t.Helper()
	ms := s.pos.LegalMoves()
	m := ms[(s.ply*7+3)%len(ms)]
	next, err := s.pos.Play(m)
	if err != nil {
		t.Fatal(err)
	}
	rec := store.MoveRecord{Side: int(s.pos.Turn()), Notation: s.pos.FormatMove(m), Position: next.Encode()}
	if err := f.st.AppendMove(context.Background(), s.id, s.ply, rec, store.GameUpdate{}); err != nil {
		t.Fatal(err)
	}
	s.pos, s.ply = next, s.ply+1
}

func get(t testing.TB, url string, hdr ...string) (*http.Response, []byte) {
	t.Helper()
	req, _ := http.NewRequest("GET", url, nil)
	for i := 0; i+1 < len(hdr); i += 2 {
		req.Header.Set(hdr[i], hdr[i+1])
	}
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	b, err := io.ReadAll(res.Body)
	if err != nil {
		t.Fatal(err)
	}
	return res, b
}

var imgRe = regexp.MustCompile(`<img id="board" src="([^"]+)"`)

func TestPageHeadersAndContent(t *testing.T) {
	f := newFixture(t)
	g := f.seed(t, 12, false)
	res, body := get(t, f.srv.URL+"/g/"+g.token)
	if res.StatusCode != 200 {
		t.Fatalf("status %d: %s", res.StatusCode, body)
	}
	h := res.Header
	csp := h.Get("Content-Security-Policy")
	for _, want := range []string{"frame-ancestors 'none'", "script-src 'nonce-", "default-src 'none'"} {
		if !strings.Contains(csp, want) {
			t.Errorf("CSP %q lacks %q", csp, want)
		}
	}
	if strings.Contains(csp, "unsafe-inline") {
		t.Errorf("CSP allows inline script: %q", csp)
	}
	nonce := regexp.MustCompile(`'nonce-([^']+)'`).FindStringSubmatch(csp)[1]
	if !bytes.Contains(body, []byte(`<script nonce="`+nonce+`">`)) {
		t.Errorf("the page's script does not carry the CSP nonce %q", nonce)
	}
	if n := bytes.Count(body, []byte("<script")); n != 1 {
		t.Errorf("%d script elements, want the one with the nonce", n)
	}
	for k, want := range map[string]string{"X-Content-Type-Options": "nosniff", "Referrer-Policy": "no-referrer", "Cache-Control": "no-store"} {
		if h.Get(k) != want {
			t.Errorf("%s = %q, want %q", k, h.Get(k), want)
		}
	}
	for _, want := range []string{`property="og:title"`, `property="og:description"`, `property="og:image" content="http://`, "Alice", "Bob", `data-k="12"`, `aria-current="true">6... `} {
		if !bytes.Contains(body, []byte(want)) {
			t.Errorf("page lacks %q", want)
		}
	}
	// The move list works without JavaScript: plain links to ?ply=K.
	if n := bytes.Count(body, []byte(`href="?ply=`)); n < 13+4 {
		t.Errorf("%d ?ply= links, want 13 moves + 4 steps", n)
	}
	if strings.Contains(string(body), "/g/"+g.token+"\"") && !strings.Contains(string(body), "og:url") {
		t.Error("unexpected token placement")
	}
}

func TestPageLanguage(t *testing.T) {
	f := newFixture(t)
	g := f.seed(t, 2, false)
	for _, c := range []struct{ query, accept, want string }{
		{"", "", `lang="en"`},
		{"", "th-TH,th;q=0.9,en;q=0.5", `lang="th"`},
		{"", "pt-BR,pt;q=0.9", `lang="pt-BR"`},
		{"?lang=pt-BR", "th", `lang="pt-BR"`},
		{"?lang=xx", "de-DE", `lang="en"`},
	} {
		_, body := get(t, f.srv.URL+"/g/"+g.token+c.query, "Accept-Language", c.accept)
		if !bytes.Contains(body, []byte(`<html `+c.want)) {
			t.Errorf("query %q Accept-Language %q: page is not %s", c.query, c.accept, c.want)
		}
	}
	_, body := get(t, f.srv.URL+"/g/"+g.token+"?lang=th")
	if !bytes.Contains(body, []byte("ตาเดิน")) {
		t.Error("Thai page lacks the Thai word for moves")
	}
	// Every link keeps the orientation and language, unescaped.
	_, body = get(t, f.srv.URL+"/g/"+g.token+"?flip=1&lang=th&ply=1")
	links := regexp.MustCompile(`href="\?([^"]*)"`).FindAllSubmatch(body, -1)
	if len(links) < 3+4 {
		t.Fatalf("%d query links", len(links))
	}
	for _, l := range links {
		q := string(l[1])
		if strings.Contains(q, "%") || !strings.Contains(q, "lang=") {
			t.Errorf("link ?%s: escaped or without the language", q)
		}
	}
	if n := bytes.Count(body, []byte(`href="?ply=`)); n < 3+4 {
		t.Errorf("%d ?ply= links keep flip", n)
	}
	if !bytes.Contains(body, []byte(`href="?ply=2&amp;flip=1&amp;lang=th" data-k="2"`)) {
		t.Error("the move list's links lose flip or language")
	}
}

func TestPageWeight(t *testing.T) {
	f := newFixture(t)
	g := f.seed(t, 100, true)
	_, body := get(t, f.srv.URL+"/g/"+g.token)
	if !bytes.Contains(body, []byte(`data-k="100"`)) {
		t.Fatalf("the game did not reach 100 plies")
	}
	t.Logf("page of a 100-ply game: %d bytes", len(body))
	if len(body) > 150<<10 {
		t.Fatalf("page weighs %d bytes, over 150 KB", len(body))
	}
}

func TestPlyImages(t *testing.T) {
	f := newFixture(t)
	g := f.seed(t, 6, false)
	_, body := get(t, f.srv.URL+"/g/"+g.token+"?ply=3")
	src := string(imgRe.FindSubmatch(body)[1])
	if !strings.Contains(src, "/ply/3-") {
		t.Fatalf("ply 3's page shows %s", src)
	}
	res, img3 := get(t, f.srv.URL+src)
	if res.StatusCode != 200 || res.Header.Get("Content-Type") != "image/png" {
		t.Fatalf("image: %d %s", res.StatusCode, res.Header.Get("Content-Type"))
	}
	if !strings.Contains(res.Header.Get("Cache-Control"), "immutable") {
		t.Errorf("content-named image Cache-Control %q, want immutable", res.Header.Get("Cache-Control"))
	}
	if _, err := png.Decode(bytes.NewReader(img3)); err != nil {
		t.Fatalf("ply image does not decode: %v", err)
	}
	etag := res.Header.Get("ETag")
	if res, _ := get(t, f.srv.URL+src, "If-None-Match", etag); res.StatusCode != http.StatusNotModified {
		t.Errorf("If-None-Match %s: %d, want 304", etag, res.StatusCode)
	}
	_, img4 := get(t, f.srv.URL+strings.Replace(src, "/ply/3-", "/ply/4-", 1))
	_, flipped := get(t, f.srv.URL+src+"?flip=1")
	if bytes.Equal(img3, flipped) {
		t.Error("flipped image equals the unflipped one")
	}
	// A stale hash (as after a takeback) still answers, but revalidated.
	res, img4b := get(t, f.srv.URL+"/g/"+g.token+"/ply/4-000000000000.png")
	if res.StatusCode != 200 || strings.Contains(res.Header.Get("Cache-Control"), "immutable") || !bytes.Equal(img4, img4b) {
		t.Errorf("stale-named image: %d %q", res.StatusCode, res.Header.Get("Cache-Control"))
	}
	if bytes.Equal(img3, img4) {
		t.Error("ply 3 and ply 4 images are equal")
	}
	for _, bad := range []string{"/ply/7.png", "/ply/-1.png", "/ply/x.png", "/ply/3.gif"} {
		if res, _ := get(t, f.srv.URL+"/g/"+g.token+bad); res.StatusCode != 404 {
			t.Errorf("%s: %d, want 404", bad, res.StatusCode)
		}
	}
	if f.v.cache.Bytes() == 0 {
		t.Error("nothing cached")
	}
}

func TestDownloads(t *testing.T) {
	f := newFixture(t)
	g := f.seed(t, 8, true)
	res, rec := get(t, f.srv.URL+"/g/"+g.token+"/record.txt")
	if res.StatusCode != 200 {
		t.Fatalf("record: %d", res.StatusCode)
	}
	r, err := recfile.Parse(string(rec))
	if err != nil || len(r.Moves) != g.ply || r.White != "Alice" || r.Outcome.Result != engine.WhiteWins {
		t.Fatalf("record %+v, %v:\n%s", r, err, rec)
	}
	res, anim := get(t, f.srv.URL+"/g/"+g.token+"/replay.gif")
	if res.StatusCode != 200 {
		t.Fatalf("gif: %d", res.StatusCode)
	}
	a, err := gif.DecodeAll(bytes.NewReader(anim))
	if err != nil || len(a.Image) < g.ply {
		t.Fatalf("gif: %v, %d frames", err, len(a.Image))
	}
	res, fin := get(t, f.srv.URL+"/g/"+g.token+"/final.png?dl=1")
	if _, err := png.Decode(bytes.NewReader(fin)); err != nil || !strings.HasPrefix(res.Header.Get("Content-Disposition"), "attachment") {
		t.Fatalf("final png: %v %q", err, res.Header.Get("Content-Disposition"))
	}
	active := f.seed(t, 2, false)
	if res, _ := get(t, f.srv.URL+"/g/"+active.token+"/replay.gif"); res.StatusCode != 404 {
		t.Errorf("replay of an active game: %d, want 404", res.StatusCode)
	}
}

// TestPrivacy: unknown, malformed, hidden and switched-off pages all answer
// the same 404, at no speed difference worth measuring.
func TestPrivacy(t *testing.T) {
	f := newFixture(t)
	g := f.seed(t, 4, true)
	ctx := context.Background()
	_, notFoundBody := get(t, f.srv.URL+"/g/AAAAAAAAAAAAAAAAAAAAAA")
	check := func(what string) {
		t.Helper()
		for _, p := range []string{"", "/ply/0.png", "/record.txt", "/final.png", "/replay.gif", "/events"} {
			res, body := get(t, f.srv.URL+"/g/"+g.token+p)
			if res.StatusCode != 404 || !bytes.Equal(body, notFoundBody) {
				t.Errorf("%s: %s answers %d %q, want the common 404", what, p, res.StatusCode, body)
			}
			if res.Header.Get("X-Content-Type-Options") != "nosniff" {
				t.Errorf("%s: 404 without nosniff", what)
			}
		}
	}
	if res, _ := get(t, f.srv.URL+"/g/"+g.token); res.StatusCode != 200 {
		t.Fatalf("visible game: %d", res.StatusCode)
	}
	if err := f.st.HideGame(ctx, g.id, "u2", true); err != nil {
		t.Fatal(err)
	}
	check("hidden game")
	if err := f.st.HideGame(ctx, g.id, "u2", false); err != nil {
		t.Fatal(err)
	}
	if err := f.st.SetWebLinks(ctx, "g1", false); err != nil {
		t.Fatal(err)
	}
	check("links off")
	if u, err := f.v.URL(ctx, g.id, "g1"); err != nil || u != "" {
		t.Errorf("URL with links off = %q, %v; want none", u, err)
	}
	if err := f.st.SetWebLinks(ctx, "g1", true); err != nil {
		t.Fatal(err)
	}
	if res, _ := get(t, f.srv.URL+"/g/"+g.token); res.StatusCode != 200 {
		t.Fatalf("links back on: %d", res.StatusCode)
	}
	// Other paths under /g/ answer the same 404, with the headers.
	for _, p := range []string{"/g/", "/g/" + g.token + "/nothing", "/g/" + g.token + "/ply/", "/g/a/b/c/d"} {
		res, body := get(t, f.srv.URL+p)
		if res.StatusCode != 404 || !bytes.Equal(body, notFoundBody) || !strings.Contains(res.Header.Get("Content-Security-Policy"), "frame-ancestors 'none'") {
			t.Errorf("%s: %d %q %q", p, res.StatusCode, body, res.Header.Get("Content-Security-Policy"))
		}
	}
	// The game number never opens a page.
	if res, _ := get(t, f.srv.URL+"/g/1"); res.StatusCode != 404 {
		t.Errorf("/g/1: %d", res.StatusCode)
	}

	// Timing: medians of interleaved requests for a well-formed unknown
	// token, a token one character off the real one, and a malformed one.
	// Loose by design: the lookup is by hash and the comparison constant
	// time, so any difference is noise far under a millisecond.
	last := "A"
	if g.token[21] == 'A' {
		last = "B"
	}
	near := g.token[:21] + last
	kinds := []string{"Zm9vYmFyYmF6cXV4cXV1eA", near, "%00..bad"}
	client := &http.Client{}
	// A leak shows in every round; a busy machine's noise (other jobs
	// taking the CPU in the middle of one kind's requests) does not, so a
	// difference must show three rounds in a row to fail.
	for round := 1; ; round++ {
		med := medians404(t, client, f.srv.URL, kinds)
		t.Logf("median 404 time: unknown %v, near miss %v, malformed %v", med[0], med[1], med[2])
		lo, hi := slices.Min(med), slices.Max(med)
		if hi-lo <= time.Millisecond || hi <= 2*lo {
			break
		}
		if round == 3 {
			t.Errorf("404 medians differ in %d rounds in a row: %v", round, med)
			break
		}
	}
}

// medians404 is the median time of a 404 for each token of kinds, from
// 150 interleaved requests each.
func medians404(t *testing.T, client *http.Client, base string, kinds []string) []time.Duration {
	t.Helper()
	times := make([][]time.Duration, len(kinds))
	for range 150 {
		for i, tok := range kinds {
			start := time.Now()
			res, err := client.Get(base + "/g/" + tok)
			if err != nil {
				t.Fatal(err)
			}
			io.Copy(io.Discard, res.Body)
			res.Body.Close()
			times[i] = append(times[i], time.Since(start))
			if res.StatusCode != 404 {
				t.Fatalf("token %q: %d", tok, res.StatusCode)
			}
		}
	}
	med := make([]time.Duration, len(kinds))
	for i := range kinds {
		slices.Sort(times[i])
		med[i] = times[i][len(times[i])/2]
	}
	return med
}

// readEvent reads one SSE data line.
func readEvent(t *testing.T, r *bufio.Reader) liveUpdate {
	t.Helper()
	for {
		line, err := r.ReadString('\n')
		if err != nil {
			t.Fatalf("event stream: %v", err)
		}
		if data, ok := strings.CutPrefix(line, "data: "); ok {
			var u liveUpdate
			if err := json.Unmarshal([]byte(data), &u); err != nil {
				t.Fatalf("event %q: %v", data, err)
			}
			return u
		}
	}
}

func TestLiveEvents(t *testing.T) {
	f := newFixture(t)
	g := f.seed(t, 3, false)
	ctx, cancel := context.WithCancel(context.Background()) // a hang ends at go test -timeout
	defer cancel()
	req, _ := http.NewRequestWithContext(ctx, "GET", f.srv.URL+"/g/"+g.token+"/events?lang=th", nil)
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	if res.Header.Get("Content-Type") != "text/event-stream" {
		t.Fatalf("content type %q", res.Header.Get("Content-Type"))
	}
	r := bufio.NewReader(res.Body)
	first := readEvent(t, r)
	if len(first.Moves) != 4 || first.Over {
		t.Fatalf("first event %+v", first)
	}
	if f.v.hub.viewers() != 1 {
		t.Errorf("viewers = %d, want 1", f.v.hub.viewers())
	}
	f.move(t, g)
	next := readEvent(t, r)
	if len(next.Moves) != 5 || next.Rev <= first.Rev || !strings.Contains(next.Status, "Alice") {
		t.Fatalf("after a move: %+v", next)
	}
	if err := f.st.FinishGame(context.Background(), g.id, g.ply, store.Outcome{Result: "0-1", Reason: "resignation"}); err != nil {
		t.Fatal(err)
	}
	last := readEvent(t, r)
	if !last.Over {
		t.Fatalf("after the end: %+v", last)
	}
	if _, err := r.ReadString('\n'); err != nil && err != io.EOF {
		t.Logf("stream end: %v", err)
	}
}

// A stream outlives the HTTP server's read and write timeouts (serve sets
// them for ordinary answers).
func TestLiveOutlivesServerTimeouts(t *testing.T) {
	f := newFixture(t)
	g := f.seed(t, 1, false)
	srv := httptest.NewUnstartedServer(f.v.Handler())
	srv.Config.ReadTimeout, srv.Config.WriteTimeout = 300*time.Millisecond, 300*time.Millisecond
	srv.Start()
	defer srv.Close()
	ctx, cancel := context.WithCancel(context.Background()) // a hang ends at go test -timeout
	defer cancel()
	req, _ := http.NewRequestWithContext(ctx, "GET", srv.URL+"/g/"+g.token+"/events", nil)
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	r := bufio.NewReader(res.Body)
	readEvent(t, r)
	time.Sleep(time.Second) // past both timeouts
	f.move(t, g)
	if u := readEvent(t, r); len(u.Moves) != 3 {
		t.Fatalf("update after the timeouts: %+v", u)
	}
}

// Both instances share the database: a viewer on one sees moves written
// through another's store handle, on SQLite and PostgreSQL.
func TestLiveAcrossInstances(t *testing.T) { storetest.Run(t, testLiveAcrossInstances) }

func testLiveAcrossInstances(t *testing.T, b storetest.Backend) {
	dsn := b.New(t)
	open := func() *store.Store {
		st, err := store.Open(context.Background(), dsn)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { st.Close() })
		return st
	}
	a, other := open(), open()
	v := New(a, Options{Poll: 100 * time.Millisecond})
	srv := httptest.NewServer(v.Handler())
	t.Cleanup(func() { v.Close(); srv.Close() })
	f := &fixture{st: other, v: v, srv: srv} // moves go through the other instance's store
	g := f.seed(t, 2, false)
	ctx, cancel := context.WithCancel(context.Background()) // a hang ends at go test -timeout
	defer cancel()
	req, _ := http.NewRequestWithContext(ctx, "GET", srv.URL+"/g/"+g.token+"/events", nil)
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	r := bufio.NewReader(res.Body)
	readEvent(t, r)
	f.move(t, g)
	if u := readEvent(t, r); len(u.Moves) != 4 {
		t.Fatalf("update from the other instance: %+v", u)
	}
}

// FuzzRequests: any path and query under a game's page answers without a
// server error.
func FuzzRequests(f *testing.F) {
	fx := newFixture(f)
	g := fx.seed(f, 3, true)
	for _, s := range []string{"", "?ply=2", "?ply=-5&flip=1&lang=th", "/ply/0.png", "/ply/3-abc.png?flip=1", "/ply/99999999999999999999.png",
		"/ply/-0.png", "/record.txt", "/final.png?dl=1", "/replay.gif", "/ply/1-.png?lang=%ff", "?lang=x-pseudo"} {
		f.Add(s)
	}
	h := fx.v.Handler()
	f.Fuzz(func(t *testing.T, suffix string) {
		req, err := http.NewRequest("GET", "/g/"+g.token+suffix, nil)
		if err != nil {
			return
		}
		w := httptest.NewRecorder()
		h.ServeHTTP(w, req)
		if w.Code >= 500 {
			t.Fatalf("%q: %d %s", suffix, w.Code, w.Body.String())
		}
	})
}

// Every game's page and images work (each game has its own drawer).
func TestEveryGame(t *testing.T) {
	f := newFixture(t)
	for _, kind := range games.Names() {
		g := f.seedKind(t, kind, 6, true)
		res, body := get(t, f.srv.URL+"/g/"+g.token+"?ply=3&lang=pt-BR")
		if res.StatusCode != 200 {
			t.Fatalf("%s: page %d", kind, res.StatusCode)
		}
		src := string(imgRe.FindSubmatch(body)[1])
		res, img := get(t, f.srv.URL+strings.ReplaceAll(src, "&amp;", "&"))
		if _, err := png.Decode(bytes.NewReader(img)); res.StatusCode != 200 || err != nil {
			t.Fatalf("%s: image %s: %d %v", kind, src, res.StatusCode, err)
		}
		if res, _ := get(t, f.srv.URL+"/g/"+g.token+"/replay.gif"); res.StatusCode != 200 {
			t.Fatalf("%s: replay %d", kind, res.StatusCode)
		}
	}
}

// Turning links off while a game is watched ends its streams at the next
// change.
func TestLiveEndsWhenLinksOff(t *testing.T) {
	f := newFixture(t)
	g := f.seed(t, 1, false)
	ctx, cancel := context.WithCancel(context.Background()) // a hang ends at go test -timeout
	defer cancel()
	req, _ := http.NewRequestWithContext(ctx, "GET", f.srv.URL+"/g/"+g.token+"/events", nil)
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	r := bufio.NewReader(res.Body)
	readEvent(t, r)
	if err := f.st.SetWebLinks(context.Background(), "g1", false); err != nil {
		t.Fatal(err)
	}
	f.move(t, g)
	for {
		line, err := r.ReadString('\n')
		if err != nil {
			break // the stream ended
		}
		if strings.HasPrefix(line, "data: ") {
			t.Fatalf("an update reached a page whose links are off: %s", line)
		}
	}
}

// TestViewerShowsStoredNames: the page, its og:description and record.txt
// name the players as the game stored them, never by their Discord ids,
// and "deleted player" once a player's data is erased.
func TestViewerShowsStoredNames(t *testing.T) {
	f := newFixture(t)
	g := f.seed(t, 4, true)
	check := func(want, gone string) {
		t.Helper()
		_, page := get(t, f.srv.URL+"/g/"+g.token)
		m := regexp.MustCompile(`property="og:description" content="([^"]*)"`).FindSubmatch(page)
		if m == nil || !strings.Contains(string(m[1]), want) || strings.Contains(string(m[1]), gone) {
			t.Fatalf("og:description %q: want %q, not %q", m, want, gone)
		}
		if !strings.Contains(string(page), want) || strings.Contains(string(page), gone) {
			t.Fatalf("page: want %q, not %q", want, gone)
		}
		_, rec := get(t, f.srv.URL+"/g/"+g.token+"/record.txt")
		if !strings.Contains(string(rec), `"`+want+`"`) || strings.Contains(string(rec), gone) {
			t.Fatalf("record.txt: want %q, not %q:\n%s", want, gone, rec)
		}
	}
	check("Alice", `"u1"`)
	if _, err := f.st.DeleteUser(context.Background(), "u1", store.Scrub{}); err != nil {
		t.Fatal(err)
	}
	check(store.DeletedPlayer, "Alice")
}

// openStream opens a live stream and reads its first event; it returns
// the status and, for a 200, the body to hold (closed by the caller).
func openStream(t *testing.T, url string) (int, io.ReadCloser) {
	t.Helper()
	res, err := http.Get(url)
	if err != nil {
		t.Fatal(err)
	}
	if res.StatusCode != 200 {
		res.Body.Close()
		return res.StatusCode, nil
	}
	br := bufio.NewReader(res.Body)
	for {
		line, err := br.ReadString('\n')
		if err != nil {
			t.Fatalf("stream ended before its first update: %v", err)
		}
		if strings.HasPrefix(line, "data: ") {
			return 200, res.Body
		}
	}
}

// TestStreamLimits: streams beyond the per-client limit get 429 and
// beyond the total 503, at once; a released slot is free again; a stream
// with no update ends after the idle limit; pages are not counted.
func TestStreamLimits(t *testing.T) {
	st, err := store.Open(context.Background(), filepath.Join(t.TempDir(), "tankbot.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	v := New(st, Options{Poll: 50 * time.Millisecond, MaxStreams: 3, MaxStreamsPerClient: 2, StreamIdle: time.Hour})
	srv := httptest.NewServer(v.Handler())
	t.Cleanup(func() { v.Close(); srv.Close() })
	f := &fixture{st: st, v: v, srv: srv}
	g := f.seed(t, 2, false)
	url := srv.URL + "/g/" + g.token + "/events"
	var held []io.ReadCloser
	for range 2 {
		code, body := openStream(t, url)
		if code != 200 {
			t.Fatalf("stream within the limits: %d", code)
		}
		held = append(held, body)
	}
	if code, _ := openStream(t, url); code != http.StatusTooManyRequests {
		t.Fatalf("third stream from one address: %d, want 429", code)
	}
	if res, _ := get(t, srv.URL+"/g/"+g.token); res.StatusCode != 200 {
		t.Fatalf("page beside held streams: %d", res.StatusCode)
	}
	// Another address fills the total: the loopback's other name.
	v.live.mu.Lock()
	v.live.by["192.0.2.9"]++
	v.live.n++
	v.live.mu.Unlock()
	if code, _ := openStream(t, url); code != http.StatusServiceUnavailable {
		t.Fatalf("stream beyond the total: %d, want 503", code)
	}
	held[0].Close()
	for v.Streams() > 2 {
		runtime.Gosched()
	}
	v.live.mu.Lock()
	v.live.by["192.0.2.9"]--
	v.live.n--
	v.live.mu.Unlock()
	code, body := openStream(t, url)
	if code != 200 {
		t.Fatalf("stream after one closed: %d", code)
	}
	body.Close()
	held[1].Close()

	// Idle: a stream with no update ends by itself.
	idle := New(st, Options{Poll: 50 * time.Millisecond, StreamIdle: 20 * time.Millisecond})
	isrv := httptest.NewServer(idle.Handler())
	t.Cleanup(func() { idle.Close(); isrv.Close() })
	code, body = openStream(t, isrv.URL+"/g/"+g.token+"/events")
	if code != 200 {
		t.Fatalf("idle stream: %d", code)
	}
	if _, err := io.Copy(io.Discard, body); err != nil {
		t.Fatalf("idle stream did not end cleanly: %v", err)
	}
	body.Close()
	for idle.Streams() > 0 {
		runtime.Gosched()
	}
}
