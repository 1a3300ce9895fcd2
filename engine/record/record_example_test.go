package record_test

import (
	"fmt"
	"os"

	"github.com/tankbot/tankbot/engine/record"
)

// Read a record file (a shipped sample, made by tankbot arena) and replay
// it: parsing checks that every move is legal.
func ExampleParse() {
	data, err := os.ReadFile("../../testdata/records/camelot.rec")
	if err != nil {
		panic(err)
	}
	rec, err := record.Parse(string(data))
	if err != nil {
		panic(err)
	}
	positions, moves, err := rec.Positions()
	if err != nil {
		panic(err)
	}
	fmt.Printf("%s, %s vs %s: %d moves, %s by %s\n", rec.Game, rec.White, rec.Black, len(moves), rec.Outcome.Result, rec.Outcome.Reason)
	last := len(moves) - 1
	fmt.Println("last:", record.MoveLabel(last, positions[last].Turn()), positions[last].FormatMove(moves[last]))
	// Output:
	// camelot, ai:5 vs ai:4: 72 moves, 0-1 by castle-occupied
	// last: 36... F2-G1
}

// Write a record from the moves of a game.
func ExampleWrite() {
	text, err := record.Write(&record.Record{
		Game: "tank", Variant: "basic16", White: "alice", Black: "bob",
		Moves: []string{"C3 > C5N", "D14 > C12SE"},
	})
	if err != nil {
		panic(err)
	}
	fmt.Print(text)
	// Output:
	// [Game "tank"]
	// [Variant "basic16"]
	// [White "alice"]
	// [Black "bob"]
	// [Rated "no"]
	// [Result "*"]
	//
	// 1. C3 > C5N
	// 1... D14 > C12SE
	// *
}
