//go:build race

package puzzle

// The race detector makes the proofs ten times slower and they run on one
// goroutine per puzzle, with nothing shared but the read-only collection:
// under -race the collection test proves every tenth puzzle (the full run
// without -race proves them all).
const raceEnabled = true
