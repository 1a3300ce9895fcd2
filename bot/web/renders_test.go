package web

import (
	"bytes"
	"context"
	"image/gif"
	"image/png"
	"net/http/httptest"
	"strconv"
	"testing"
	"time"

	"github.com/tankbot/tankbot/bot/renders"
)

// A finished game's images are drawn once and stored: a viewer started
// afresh over the same database (a restart, another instance) serves
// them without drawing; a running game's are drawn and never stored.
func TestFinishedGameImagesStored(t *testing.T) {
	f := newFixture(t)
	ctx := context.Background()
	g := f.seed(t, 6, true)
	paths := []string{"/final.png", "/replay.gif", "/final.png?flip=1"}
	for k := 0; k <= g.ply; k++ {
		paths = append(paths, "/ply/"+strconv.Itoa(k)+".png")
	}
	first := map[string][]byte{}
	for _, p := range paths {
		res, body := get(t, f.srv.URL+"/g/"+g.token+p)
		if res.StatusCode != 200 {
			t.Fatalf("%s: %d", p, res.StatusCode)
		}
		first[p] = body
	}
	if _, err := gif.DecodeAll(bytes.NewReader(first["/replay.gif"])); err != nil {
		t.Fatalf("replay: %v", err)
	}
	if _, err := png.Decode(bytes.NewReader(first["/final.png"])); err != nil {
		t.Fatalf("final board: %v", err)
	}
	// The last ply's image is the final board: one picture, one draw.
	if !bytes.Equal(first["/final.png"], first["/ply/"+strconv.Itoa(g.ply)+".png"]) {
		t.Error("the last ply's image differs from final.png")
	}
	if n := f.v.rd.Drawn(); n != int64(g.ply+3) {
		t.Errorf("%d pictures drawn for %d plies, the flipped final board and the replay, want %d", n, g.ply, g.ply+3)
	}
	if n, err := f.st.GameRenderBytes(ctx, g.id); err != nil || n == 0 {
		t.Fatalf("nothing stored (%v)", err)
	}

	restarted := New(f.st, Options{Poll: 100 * time.Millisecond, Renders: renders.New(f.st, 1, nil)})
	srv := httptest.NewServer(restarted.Handler())
	t.Cleanup(func() { restarted.Close(); srv.Close() })
	for _, p := range paths {
		res, body := get(t, srv.URL+"/g/"+g.token+p)
		if res.StatusCode != 200 || !bytes.Equal(body, first[p]) {
			t.Fatalf("%s after a restart: %d, same bytes %v", p, res.StatusCode, bytes.Equal(body, first[p]))
		}
	}
	if n := restarted.rd.Drawn(); n != 0 {
		t.Fatalf("a restarted viewer drew %d pictures of a finished game", n)
	}

	live := f.seed(t, 3, false)
	for _, p := range []string{"/final.png", "/ply/1.png"} {
		if res, _ := get(t, f.srv.URL+"/g/"+live.token+p); res.StatusCode != 200 {
			t.Fatalf("running game %s: %d", p, res.StatusCode)
		}
	}
	if n, err := f.st.GameRenderBytes(ctx, live.id); err != nil || n != 0 {
		t.Fatalf("a running game's images were stored: %d bytes (%v)", n, err)
	}
}
