package app

import (
	"context"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"sync"
	"sync/atomic"
	"time"

	"github.com/tankbot/tankbot/engine/puzzle"
	"github.com/tankbot/tankbot/store"
)

// Puzzles from a server's own games (docs/puzzles.md): the scheduler mines
// each finished game once with engine/puzzle's generator and verifier, the
// same proof as the shipped collection, and the puzzles found join that
// server's pool, which /puzzle serves to its players next to the shipped
// ones. A game is marked mined in the transaction that adds its puzzles, so
// a restart mid-way mines it again (a puzzle is added once) and a mined
// game is never mined twice.

const (
	// maxMinedPositions bounds the positions one game is mined in: its
	// last ones, where the wins are.
	maxMinedPositions = 400
	// mineIdle is how long the miner waits, once every finished game is
	// mined, before it looks again.
	mineIdle = time.Minute
	// ownPuzzleWindow: a puzzle from the player's own server, not tried
	// yet, within this many points of their puzzle rating, comes first.
	ownPuzzleWindow = 400
)

// miner runs one mining job at a time, in the background of the
// scheduler, and rests as long as the last job took: at most half of one
// core, whatever the backlog.
type miner struct {
	busy atomic.Bool
	wg   sync.WaitGroup
	next atomic.Int64 // the earliest start of the next job (Unix nanoseconds)
}

// MinePuzzles mines the oldest finished game not yet mined and adds the
// puzzles found to its server's pool. It reports whether there was a game
// to mine and how many puzzles were new in the pool.
func (b *Bot) MinePuzzles(ctx context.Context) (mined bool, added int, err error) {
	st := b.St
	gs, err := st.UnminedGames(ctx, 1)
	if err != nil || len(gs) == 0 {
		return false, 0, err
	}
	g := gs[0]
	found, err := b.minePuzzles(ctx, g)
	if err != nil {
		if ctx.Err() != nil {
			return false, 0, ctx.Err() // not marked: mined again later
		}
		// A game that does not replay would fail at every pass: it is
		// marked mined, without puzzles, and logged.
		b.Log.Warn("mine puzzles", "game", g.ID, "err", err)
		found = nil
	}
	added, err = st.MarkMined(ctx, g.ID, found, b.Clk.Now())
	return err == nil, added, err
}

// minePuzzles finds the puzzles in g's positions that are not shipped.
func (b *Bot) minePuzzles(ctx context.Context, g *store.Game) ([]*store.PoolPuzzle, error) {
	shipped, err := puzzle.Shipped(g.Kind)
	if err != nil {
		return nil, nil // a game without puzzles
	}
	rules, ok := LookupGame(g.Kind)
	if !ok {
		return nil, fmt.Errorf("unknown game %q", g.Kind)
	}
	start, err := rules.Decode(g.Start)
	if err != nil {
		return nil, fmt.Errorf("start: %w", err)
	}
	notes, err := b.St.MoveLog(ctx, g.ID)
	if err != nil {
		return nil, err
	}
	ps, err := puzzle.GamePositions(start, notes)
	if err != nil {
		return nil, err
	}
	if len(ps) > maxMinedPositions {
		ps = ps[len(ps)-maxMinedPositions:]
	}
	known := make(map[string]bool, len(shipped))
	for _, p := range shipped {
		known[p.ID] = true
	}
	pzs, err := puzzle.MineGame(ctx, ps, puzzle.DefaultSettings(g.Kind), fmt.Sprintf("game:%s#%d", g.Guild, g.Number),
		func(id string) bool { return known[id] })
	if err != nil {
		return nil, err
	}
	out := make([]*store.PoolPuzzle, 0, len(pzs))
	for _, p := range pzs {
		out = append(out, &store.PoolPuzzle{Guild: g.Guild, ID: p.ID, Game: g.Kind, Line: p.Line(), Rating: p.Rating})
	}
	return out, nil
}

// minePuzzlesLater starts a mining job in the background when none runs
// and the miner has rested (RunScheduler calls it after every pass).
func (b *Bot) minePuzzlesLater(ctx context.Context) {
	if b.Clk.Now().UnixNano() < b.mine.next.Load() || !b.mine.busy.CompareAndSwap(false, true) {
		return
	}
	b.mine.wg.Add(1)
	go func() {
		defer b.mine.wg.Done()
		defer b.mine.busy.Store(false)
		start := b.Clk.Now()
		mined, added, err := b.MinePuzzles(ctx)
		rest := b.Clk.Now().Sub(start)
		switch {
		case err != nil && ctx.Err() == nil:
			b.Log.Error("mine puzzles", "err", err)
			rest = max(rest, mineIdle)
		case !mined:
			rest = mineIdle
		case added > 0:
			b.Log.Info("puzzles from a finished game", "added", added, "took", rest)
		}
		b.mine.next.Store(b.Clk.Now().Add(rest).UnixNano())
	}()
}

// WaitMining waits for a background mining job to end (its context ends
// it between two positions).
func (b *Bot) WaitMining() { b.mine.wg.Wait() }

// lookupPuzzle finds a puzzle by id: shipped, or mined in a server's game.
func (b *Bot) lookupPuzzle(ctx context.Context, game, id string) (*puzzle.Puzzle, error) {
	pz, err := puzzleByID(game, id)
	var rf *Refusal
	if err == nil || !errors.As(err, &rf) {
		return pz, err
	}
	pp, perr := b.St.PoolPuzzle(ctx, id)
	if errors.Is(perr, store.ErrNotFound) || perr == nil && pp.Game != game {
		return nil, err
	}
	if perr != nil {
		return nil, perr
	}
	return puzzle.ParseLine(pp.Game, pp.Line)
}

// ServerPuzzles are the puzzles of game mined in guild's games.
func (b *Bot) ServerPuzzles(ctx context.Context, guild, game string) ([]*puzzle.Puzzle, error) {
	if guild == "" {
		return nil, nil
	}
	pps, err := b.St.PoolPuzzles(ctx, guild, game)
	if err != nil {
		return nil, err
	}
	out := make([]*puzzle.Puzzle, 0, len(pps))
	for _, pp := range pps {
		p, err := puzzle.ParseLine(pp.Game, pp.Line)
		if err != nil {
			b.Log.Warn("pooled puzzle", "puzzle", pp.ID, "err", err)
			continue
		}
		out = append(out, p)
	}
	return out, nil
}

// ChoosePuzzle picks the next puzzle for a player rated rt: one from their
// server's games not tried yet and within ownPuzzleWindow of rt first,
// else one of all (shipped and the server's) not tried yet near rt, else
// (all tried) any again, unrated. A puzzle's rating is its current one
// (cur, from its attempts) when it has one.
func ChoosePuzzle(shipped, own []*puzzle.Puzzle, rt float64, tried map[string]bool, cur map[string]float64, rng *rand.Rand) *puzzle.Puzzle {
	done := func(id string) bool { return tried[id] }
	current := func(id string) (float64, bool) {
		r, ok := cur[id]
		return r, ok
	}
	var close []*puzzle.Puzzle
	for _, p := range own {
		if math.Abs(float64(p.Rating)-rt) <= ownPuzzleWindow {
			close = append(close, p)
		}
	}
	if pz := puzzle.Pick(close, puzzle.Want{Rating: rt, Done: done, Current: current}, rng); pz != nil {
		return pz
	}
	all := append(append([]*puzzle.Puzzle{}, shipped...), own...)
	if pz := puzzle.Pick(all, puzzle.Want{Rating: rt, Done: done, Current: current}, rng); pz != nil {
		return pz
	}
	return puzzle.Pick(all, puzzle.Want{Rating: rt, Current: current}, rng)
}
