package main

import (
	"bytes"
	"image/png"
	"os"
	"path/filepath"
	"testing"
)

func TestRenderToFileAndStdout(t *testing.T) {
	file := filepath.Join(t.TempDir(), "board.png")
	var out, errb bytes.Buffer
	if code := runMain([]string{"render", "--game", "tank", "--position", "basic16", "--last", "h3 > h4N", "--flip", "--out", file}, &out, &errb); code != 0 {
		t.Fatalf("exit %d: %s", code, errb.String())
	}
	b, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := png.Decode(bytes.NewReader(b)); err != nil {
		t.Fatalf("file is not a PNG: %v", err)
	}
	out.Reset()
	if code := runMain([]string{"render", "--position", "basic20", "--out", "-"}, &out, &errb); code != 0 {
		t.Fatalf("exit %d: %s", code, errb.String())
	}
	img, err := png.Decode(&out)
	if err != nil {
		t.Fatalf("stdout is not a PNG: %v", err)
	}
	if w := img.Bounds().Dx(); w < 800 || w > 900 {
		t.Errorf("width %d", w)
	}
}

func TestRenderErrors(t *testing.T) {
	for _, args := range [][]string{
		{"render", "--position", "basic16"},                                     // no --out
		{"render", "--position", "nowhere", "--out", "-"},                       // unknown map
		{"render", "--game", "go", "--out", "-"},                                // unknown game
		{"render", "--position", "basic16", "--last", "a1 > a9N", "--out", "-"}, // illegal move
		{"render", "--bogus", "--out", "-"},
		{"render", "--position", "basic16", "--lang", "klingon", "--out", "-"}, // unknown language
	} {
		var out, errb bytes.Buffer
		code := runMain(args, &out, &errb)
		if code == 0 {
			t.Errorf("%q: exit 0", args)
		}
		if !oneErrorLine(code, errb.String(), "tankbot render: ") {
			t.Errorf("%q: want one error line, got %q", args, errb.String())
		}
		if out.Len() != 0 {
			t.Errorf("%q: wrote %d bytes to stdout", args, out.Len())
		}
	}
}

// --lang words the image in that language: the header differs, the board
// does not.
func TestRenderLang(t *testing.T) {
	imgs := map[string][]byte{}
	for _, lang := range []string{"en", "th", "pt-BR"} {
		var out, errb bytes.Buffer
		if code := runMain([]string{"render", "--position", "basic16", "--lang", lang, "--out", "-"}, &out, &errb); code != 0 {
			t.Fatalf("%s: exit %d: %s", lang, code, errb.String())
		}
		if _, err := png.Decode(bytes.NewReader(out.Bytes())); err != nil {
			t.Fatalf("%s: not a PNG: %v", lang, err)
		}
		imgs[lang] = out.Bytes()
	}
	if bytes.Equal(imgs["en"], imgs["th"]) || bytes.Equal(imgs["en"], imgs["pt-BR"]) {
		t.Error("--lang does not change the image")
	}
}
