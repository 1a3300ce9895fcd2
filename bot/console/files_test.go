package console

import (
	"os"
	"path/filepath"
	"testing"
)

// A board image is never written through a link planted at its name (the
// old console wrote into a shared /tmp folder following links), and images
// and the default directory are private to the user.
func TestImagesDoNotFollowLinks(t *testing.T) {
	dir := t.TempDir()
	victim := filepath.Join(t.TempDir(), "victim")
	if err := os.WriteFile(victim, []byte("keep"), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(victim, filepath.Join(dir, "board-1-0.png")); err != nil {
		t.Fatal(err)
	}
	path, err := writeFile(dir, "board-1-0.png", []byte("png"))
	if err != nil {
		t.Fatal(err)
	}
	if got, _ := os.ReadFile(victim); string(got) != "keep" {
		t.Fatalf("the link target was written: %q", got)
	}
	fi, err := os.Lstat(path)
	if err != nil || fi.Mode()&os.ModeSymlink != 0 || fi.Mode().Perm() != 0o600 {
		t.Fatalf("image %v mode %v", err, fi.Mode())
	}
	if _, err := writeFile(dir, "../escape.png", nil); err == nil {
		t.Error("a name with a path was accepted")
	}

	t.Setenv("XDG_CACHE_HOME", t.TempDir())
	d, err := PrivateDir("")
	if err != nil {
		t.Fatal(err)
	}
	if fi, err := os.Lstat(d); err != nil || fi.Mode().Perm() != 0o700 {
		t.Fatalf("default image dir %s: %v %v", d, err, fi.Mode())
	}
	link := filepath.Join(t.TempDir(), "link")
	if err := os.Symlink(t.TempDir(), link); err != nil {
		t.Fatal(err)
	}
	if _, err := PrivateDir(link); err == nil {
		t.Error("a link accepted as the image directory")
	}
}
