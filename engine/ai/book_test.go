package ai

import (
	"context"
	"strings"
	"testing"

	"github.com/tankbot/tankbot/engine/games"
)

// Every line of every shipped book is a position of its game with a legal
// move; from a book position levels 3 and up play a book move, level 2
// and NoPlan (the review) search.
func TestBooks(t *testing.T) {
	for _, r := range games.All() {
		t.Run(r.Name(), func(t *testing.T) {
			data, err := bookFiles.ReadFile("books/" + r.Name() + ".txt")
			if err != nil {
				t.Fatal(err)
			}
			lines := 0
			for _, line := range strings.Split(string(data), "\n") {
				if line == "" || line[0] == '#' {
					continue
				}
				f := strings.Split(line, "\t")
				if len(f) != 3 {
					t.Fatalf("line %q: want position, move, count", line)
				}
				p, err := r.Decode(f[0])
				if err != nil {
					t.Fatalf("line %q: %v", line, err)
				}
				m, err := p.ParseMove(f[1])
				if err == nil {
					_, err = p.Play(m)
				}
				if err != nil {
					t.Fatalf("line %q: %v", line, err)
				}
				lines++
				if lines > 1 {
					continue
				}
				res, err := Think(context.Background(), p, Limits{Level: 3, Seed: 1})
				if err != nil || !res.Book {
					t.Errorf("level 3 at a book position: %+v, %v", res, err)
				}
				for _, lim := range []Limits{{Level: 2, Seed: 1, Nodes: 500}, {Level: 5, NoPlan: true, Nodes: 500, Seed: 1}} {
					if res, err := Think(context.Background(), p, lim); err != nil || res.Book {
						t.Errorf("%+v at a book position: book %v, %v", lim, res.Book, err)
					}
				}
			}
			t.Logf("%d book lines", lines)
		})
	}
}
