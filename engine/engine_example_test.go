package engine_test

import (
	"fmt"

	"github.com/tankbot/tankbot/engine"
)

// Players see full moves: after 108 single moves, move 55 is to be played.
func ExampleMoveNumber() {
	for _, ply := range []int{0, 1, 2, 107, 108} {
		fmt.Printf("after %d moves: Move %d\n", ply, engine.MoveNumber(ply))
	}
	// Output:
	// after 0 moves: Move 1
	// after 1 moves: Move 1
	// after 2 moves: Move 2
	// after 107 moves: Move 54
	// after 108 moves: Move 55
}
