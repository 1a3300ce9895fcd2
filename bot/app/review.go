package app

import (
	"runtime"
	"sync"
	"sync/atomic"

	"github.com/tankbot/tankbot/bot/renders"
	"github.com/tankbot/tankbot/engine/review"
)

// reviewer bounds the reviews running at once to the machine's CPUs (each
// is one CPU-bound search, through the same Slots as renders) and counts
// the analyses run.
type reviewer struct {
	once sync.Once
	sem  *renders.Slots
	// nodes is the budget per position before the game's scaling (0:
	// Config.ReviewNodes, else review.DefaultNodes); tests lower it.
	nodes int64
	runs  atomic.Int64
}

func (rv *reviewer) slots() *renders.Slots {
	rv.once.Do(func() { rv.sem = renders.NewSlots(runtime.NumCPU()) })
	return rv.sem
}

func (rv *reviewer) budget(cfg Config) int64 {
	switch {
	case rv.nodes > 0:
		return rv.nodes
	case cfg.ReviewNodes > 0:
		return cfg.ReviewNodes
	}
	return review.DefaultNodes
}
