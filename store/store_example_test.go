package store_test

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"

	"github.com/tankbot/tankbot/store"
)

// Open a SQLite file (created with its folder, schema migrated), start a
// game, record a move and read the game back with its move log.
func Example() {
	dir, err := os.MkdirTemp("", "store-example-")
	if err != nil {
		panic(err)
	}
	defer os.RemoveAll(dir)
	ctx := context.Background()
	st, err := store.Open(ctx, filepath.Join(dir, "games", "tankbot.db"))
	if err != nil {
		panic(err)
	}
	defer st.Close()

	g, err := st.CreateGame(ctx, store.Game{Kind: "tank", Variant: "basic16", Guild: "server", Channel: "chess",
		Players: [2]string{"alice", "bob"}, Start: "start-position"})
	if err != nil {
		panic(err)
	}
	if err := st.AppendMove(ctx, g.ID, 0, store.MoveRecord{Side: 0, Notation: "C3 > C5N", Position: "after-c3"}, store.GameUpdate{}); err != nil {
		panic(err)
	}
	// A second writer that still thinks the game is at ply 0 is refused.
	err = st.AppendMove(ctx, g.ID, 0, store.MoveRecord{Side: 0, Notation: "H1 > H2N", Position: "x"}, store.GameUpdate{})
	fmt.Println("stale move refused:", errors.Is(err, store.ErrStalePly))

	got, moves, err := st.LoadGame(ctx, g.ID)
	if err != nil {
		panic(err)
	}
	fmt.Printf("game #%d %s, %s vs %s, ply %d, position %s\n", got.Number, got.Status, got.Players[0], got.Players[1], got.Ply, got.Position)
	for _, m := range moves {
		fmt.Println(m.Ply, m.Notation)
	}
	// Output:
	// stale move refused: true
	// game #1 active, alice vs bob, ply 1, position after-c3
	// 1 C3 > C5N
}
