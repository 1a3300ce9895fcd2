package tank_test

import (
	"fmt"

	"github.com/tankbot/tankbot/engine"
	"github.com/tankbot/tankbot/engine/tank"
)

// Start a shipped map, read a move in the notation players type, play it.
func Example() {
	pos, err := tank.Rules.Start("basic16")
	if err != nil {
		panic(err)
	}
	fmt.Println(len(pos.LegalMoves()), "legal moves for", pos.Turn())
	m, err := pos.ParseMove("c3 > c5n")
	if err != nil {
		panic(err)
	}
	next, err := pos.Play(m)
	if err != nil {
		panic(err)
	}
	fmt.Println(pos.FormatMove(m), "then", next.Turn(), "to play move", engine.MoveNumber(1))
	// Output:
	// 549 legal moves for white
	// C3 > C5N then black to play move 1
}
