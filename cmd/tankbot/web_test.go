package main

import (
	"bytes"
	"context"
	"io"
	"net/http"
	"regexp"
	"strings"
	"testing"
)

// tankbot play serves the viewer on a loopback port and prints the game's
// page, which answers while the console runs.
func TestPlayPrintsViewerURL(t *testing.T) {
	inR, inW := io.Pipe()
	out := &watched{ch: make(chan struct{}, 1)}
	var errs bytes.Buffer
	done := make(chan error, 1)
	go func() {
		done <- runPlay(context.Background(), []string{"--png", t.TempDir()}, inR, out, &errs)
	}()
	out.waitFor(t, "Watch it in a browser: ", 1)
	u := regexp.MustCompile(`Watch it in a browser: (http://127\.0\.0\.1:\d+/g/[A-Za-z0-9_-]{22})\n`).FindStringSubmatch(out.String())
	if u == nil {
		t.Fatalf("no viewer address in:\n%s", out.String())
	}
	res, err := http.Get(u[1])
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(res.Body)
	res.Body.Close()
	if res.StatusCode != 200 || !strings.Contains(string(body), `id="board"`) {
		t.Fatalf("%s: %d\n%s", u[1], res.StatusCode, body)
	}
	inW.Close()
	if err := <-done; err != nil {
		t.Fatalf("play: %v\n%s", err, errs.String())
	}
	if _, err := http.Get(u[1]); err == nil {
		t.Error("the viewer still answers after play ended")
	}
}

// --web off: no viewer, no address.
func TestPlayWebOff(t *testing.T) {
	var out, errs bytes.Buffer
	if err := runPlay(context.Background(), []string{"--png", t.TempDir(), "--web", "off"}, strings.NewReader(""), &out, &errs); err != nil {
		t.Fatal(err)
	}
	if strings.Contains(out.String(), "Watch it in a browser") {
		t.Errorf("--web off printed an address:\n%s", out.String())
	}
}
