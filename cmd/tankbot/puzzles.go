package main

// puzzles: generate puzzle collections from the archive and from self-play,
// and list the shipped ones.

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"
	"time"

	"github.com/tankbot/tankbot/engine"
	"github.com/tankbot/tankbot/engine/games"
	"github.com/tankbot/tankbot/engine/puzzle"
	"github.com/tankbot/tankbot/store"
)

// puzzleClock times generation runs; tests replace it.
var puzzleClock = time.Now

func runPuzzles(args []string, stdout, stderr io.Writer) error {
	top := newFlags("puzzles")
	if len(args) == 0 {
		return usageError{top, errors.New("give a puzzles command: generate or list")}
	}
	switch args[0] {
	case "generate":
		return runPuzzlesGenerate(args[1:], stdout, stderr)
	case "list":
		return runPuzzlesList(args[1:], stdout)
	}
	if strings.HasPrefix(args[0], "-") {
		if err := parseFlags(top, args); err != nil {
			return err
		}
	}
	return usageError{top, fmt.Errorf("unknown puzzles command %q (generate, list)", args[0])}
}

func runPuzzlesList(args []string, stdout io.Writer) error {
	fs := newFlags("puzzles list")
	game := fs.String("game", "", "game: "+strings.Join(games.Names(), ", "))
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	r, err := games.Lookup(*game)
	if err != nil {
		return err
	}
	ps, err := puzzle.Shipped(r.Name())
	if err != nil {
		return err
	}
	w := bufio.NewWriter(stdout)
	for _, p := range ps {
		fmt.Fprintf(w, "%s\t%d\t%s\t%s\n", p.ID, p.Depth, p.Position, strings.Join(p.Solution, puzzle.MoveSep))
	}
	return w.Flush()
}

// genRun is one generation run's state and figures.
type genRun struct {
	game       string
	set        puzzle.Settings
	out        *bufio.Writer
	stderr     io.Writer
	seen       map[string]bool
	limit      int
	deviations int
	forced     bool // deep runs: DeepDeviations instead of random moves
	start      time.Time
	lastShow   time.Time
	positions  int
	found      int
	budget     int
	depths     [puzzle.MaxDepth + 1]int
	refused    map[string]int // why candidates with a win were refused
}

// depthCounts is "1: 12, 2: 3", the puzzles found per depth.
func (g *genRun) depthCounts() string {
	var parts []string
	for d, n := range g.depths {
		if n > 0 {
			parts = append(parts, fmt.Sprintf("%d: %d", d, n))
		}
	}
	if len(parts) == 0 {
		return "none"
	}
	return strings.Join(parts, ", ")
}

func runPuzzlesGenerate(args []string, stdout, stderr io.Writer) error {
	fs := newFlags("puzzles generate")
	game := fs.String("game", "", "game: "+strings.Join(games.Names(), ", "))
	archive := fs.String("from-archive", "", "store database (SQLite file or PostgreSQL DSN) to mine finished games from")
	guilds := fs.String("guild", "", "with --from-archive: comma-separated server ids whose games to mine")
	selfplay := fs.Int("selfplay", 0, "number of self-play games to mine")
	first := fs.Int("first", 0, "number of the first self-play game (runs with the same seed and other ranges add up)")
	seed := fs.Int64("seed", 1, "self-play seed")
	out := fs.String("out", "", "file to write the puzzles to (TSV, the shipped format)")
	depth := fs.Int("depth", 0, "deepest win looked for (default: the game's shipped setting)")
	deep := fs.Bool("deep", false, "start from the game's settings for deeper puzzles (wins in two, forcing filter) instead of its depth-1 ones")
	minDepth := fs.Int("min-depth", 0, "shallowest win kept: 2 or more skips positions with a faster win (default: the game's setting)")
	forcing := fs.Int("forcing", -1, "search only positions with a forcing win (the defender never has more than this many replies) before the exact search; 0: every position (default: the game's setting)")
	verifyBudget := fs.Int64("verify-budget", 0, "moves and move lists the deeper verification of a puzzle may cost (default: the game's shipped setting)")
	budget := fs.Int64("budget", 0, "positions one proof may visit (default: the game's shipped setting)")
	plies := fs.Int("max-plies", 300, "self-play games stop after this many plies")
	fromPly := fs.Int("from-ply", 0, "mine self-play positions from this ply on (to make one known puzzle again quickly; the games are the same)")
	limit := fs.Int("limit", 0, "stop after this many puzzles (0: no limit)")
	forced := fs.Bool("forced-blunders", false, "deep runs: try the moves that hand the opponent a forcing win (a search per legal move) instead of moves drawn at random")
	devs := fs.Int("deviations", 3, "other moves tried per position without a puzzle of its own: blunders, or in runs for deeper puzzles moves drawn at random (0: only the games' positions)")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	r, err := games.Lookup(*game)
	if err != nil {
		return err
	}
	if *out == "" {
		return errors.New("--out is required")
	}
	if *selfplay <= 0 && *archive == "" {
		return errors.New("nothing to mine: give --selfplay N and/or --from-archive DB")
	}
	if *archive != "" && *guilds == "" {
		return errors.New("--from-archive needs --guild (the archive is kept per server)")
	}
	if *selfplay < 0 || *first < 0 || *plies < 1 || *limit < 0 || *devs < 0 || *fromPly < 0 || *depth < 0 || *depth > puzzle.MaxDepth || *budget < 0 || *verifyBudget < 0 {
		return fmt.Errorf("--selfplay, --first, --limit, --from-ply, --budget, --verify-budget must be >= 0, --max-plies >= 1, --depth 0..%d", puzzle.MaxDepth)
	}
	set := puzzle.DefaultSettings(r.Name())
	if *deep {
		set = puzzle.DeepSettings(r.Name())
	}
	if *depth > 0 {
		set.MaxDepth = *depth
	}
	if *budget > 0 {
		set.Budget = *budget
	}
	if *verifyBudget > 0 {
		set.VerifyBudget = *verifyBudget
	}
	if *minDepth > 0 {
		set.MinDepth = *minDepth
	}
	if *minDepth < 0 || set.MinDepth > set.MaxDepth {
		return fmt.Errorf("--min-depth must be 1..%d (the deepest win looked for)", set.MaxDepth)
	}
	if *forcing < -1 {
		return errors.New("--forcing must be >= 0")
	}
	if *forcing >= 0 {
		set.Forcing = *forcing
	}
	f, err := os.Create(*out)
	if err != nil {
		return err
	}
	defer f.Close()
	g := &genRun{game: r.Name(), set: set, out: bufio.NewWriter(f), stderr: stderr, seen: map[string]bool{}, limit: *limit, deviations: *devs, forced: *forced, start: puzzleClock()}
	g.lastShow = g.start
	fmt.Fprintf(g.out, "# tankbot puzzles generate --game %s --seed %d --first %d --selfplay %d --max-plies %d --min-depth %d --depth %d --budget %d --verify-budget %d --forcing %d --forced-blunders=%t --deviations %d\n%s\n",
		r.Name(), *seed, *first, *selfplay, *plies, set.MinDepth, set.MaxDepth, set.Budget, set.VerifyBudget, set.Forcing, *forced, *devs, puzzle.Header)
	if *archive != "" {
		if err := g.mineArchive(r, *archive, strings.Split(*guilds, ",")); err != nil {
			return err
		}
	}
	for k := *first; k < *first+*selfplay && !g.full(); k++ {
		ps, err := puzzle.SelfPlay(r, *seed, k, *plies)
		if err != nil {
			return fmt.Errorf("self-play game %d: %w", k, err)
		}
		g.mine(ps, fmt.Sprintf("selfplay:%d:%d", *seed, k), *fromPly)
		g.progress(fmt.Sprintf("self-play game %d/%d", k-*first+1, *selfplay), false)
	}
	if err := g.out.Flush(); err != nil {
		return err
	}
	if err := f.Close(); err != nil {
		return err
	}
	g.progress("done", true)
	el := puzzleClock().Sub(g.start)
	fmt.Fprintf(stdout, "%s: %d puzzles from %d positions in %s (%.1f puzzles/minute; %d positions over the search budget; by depth %s) -> %s\n",
		r.Name(), g.found, g.positions, el.Round(time.Second), perMinute(g.found, el), g.budget, g.depthCounts(), *out)
	return nil
}

func perMinute(n int, d time.Duration) float64 {
	if d <= 0 {
		return 0
	}
	return float64(n) / d.Minutes()
}

func (g *genRun) full() bool { return g.limit > 0 && g.found >= g.limit }

// mine tries every position of one game from ply from on; source names
// the game.
func (g *genRun) mine(ps []engine.Position, source string, from int) {
	for ply := from; ply < len(ps); ply++ {
		pos := ps[ply]
		if g.full() {
			return
		}
		where := fmt.Sprintf("%s:%d", source, ply)
		if g.try(pos, where) || g.deviations == 0 {
			continue
		}
		if g.forced && g.set.MinDepth > 1 {
			devs, err := puzzle.DeepDeviations(pos, hashString(where), g.set.MaxDepth, max(g.set.Forcing, 1), g.deviations, g.set.Budget)
			if err != nil {
				continue
			}
			for _, d := range devs {
				if g.full() {
					break
				}
				g.try(d.Position, where+":"+d.Move)
			}
			continue
		}
		// No puzzle in the game's own position: look at the positions its
		// blunders would have given, keeping at most one of them. A blunder
		// hands the opponent a win at once, so runs for deeper puzzles try
		// other moves drawn at random instead (looking for the moves that
		// hand over a forcing win costs a search per move, and found fewer
		// puzzles a minute).
		blunders, quiet := g.deviations, 1
		if g.set.MinDepth > 1 {
			blunders, quiet = 0, g.deviations
		}
		devs, err := puzzle.Deviations(pos, hashString(where), quiet, blunders)
		if err != nil {
			continue
		}
		for _, d := range devs {
			if g.full() || g.try(d.Position, where+":"+d.Move) {
				break
			}
		}
	}
}

// try keeps pos if it is a new puzzle.
func (g *genRun) try(pos engine.Position, source string) bool {
	g.positions++
	pz, err := puzzle.Accept(pos, g.set)
	switch {
	case errors.Is(err, puzzle.ErrBudget):
		g.budget++
	case errors.Is(err, puzzle.ErrSecond):
		g.refuse("second solution")
	case errors.Is(err, puzzle.ErrShallow):
		g.refuse("faster win")
	case errors.Is(err, puzzle.ErrForced):
		g.refuse("forced move")
	case err != nil && !errors.Is(err, puzzle.ErrNoWin) && !errors.Is(err, puzzle.ErrDraft):
		g.refuse("verification")
	}
	if err != nil || g.seen[pz.ID] {
		return false
	}
	g.seen[pz.ID] = true
	pz.Source = source
	g.found++
	g.depths[pz.Depth]++
	fmt.Fprintln(g.out, pz.Line())
	g.out.Flush() // a long run killed midway keeps what it found
	return true
}

func (g *genRun) refuse(why string) {
	if g.refused == nil {
		g.refused = map[string]int{}
	}
	g.refused[why]++
}

// hashString is FNV-1a: a stable seed from a source name.
func hashString(s string) uint64 {
	h := uint64(14695981039346656037)
	for i := 0; i < len(s); i++ {
		h ^= uint64(s[i])
		h *= 1099511628211
	}
	return h
}

// progress prints a line at most every 10 seconds (and at the end).
func (g *genRun) progress(what string, force bool) {
	now := puzzleClock()
	if !force && now.Sub(g.lastShow) < 10*time.Second {
		return
	}
	g.lastShow = now
	el := now.Sub(g.start)
	fmt.Fprintf(g.stderr, "%s %s: %d positions, %d puzzles (by depth %s), %.1f puzzles/minute, %s; refused %v, %d over budget\n",
		g.game, what, g.positions, g.found, g.depthCounts(), perMinute(g.found, el), el.Round(time.Second), g.refused, g.budget)
}

// mineArchive mines the finished games of the given servers.
func (g *genRun) mineArchive(r engine.Rules, dsn string, guilds []string) error {
	ctx := context.Background()
	st, err := store.Open(ctx, dsn)
	if err != nil {
		return err
	}
	defer st.Close()
	for _, guild := range guilds {
		guild = strings.TrimSpace(guild)
		for off := 0; ; off += 100 {
			as, err := st.FinishedGames(ctx, guild, "", off, 100)
			if err != nil {
				return err
			}
			for _, a := range as {
				if a.Kind != r.Name() {
					continue
				}
				ps, err := archivedPositions(ctx, st, r, a)
				if err != nil {
					return err
				}
				g.mine(ps, fmt.Sprintf("archive:%s#%d", guild, a.Number), 0)
				g.progress(fmt.Sprintf("archive %s #%d", guild, a.Number), false)
				if g.full() {
					return nil
				}
			}
			if len(as) < 100 {
				break
			}
		}
	}
	return nil
}

// archivedPositions replays a finished game through the engine and returns
// its ongoing positions.
func archivedPositions(ctx context.Context, st *store.Store, r engine.Rules, a *store.Archived) ([]engine.Position, error) {
	ms, err := st.Moves(ctx, a.ID)
	if err != nil {
		return nil, err
	}
	start, err := r.Decode(a.Start)
	if err != nil {
		return nil, fmt.Errorf("game #%d start: %w", a.Number, err)
	}
	notes := make([]string, len(ms))
	for i, m := range ms {
		notes[i] = m.Notation
	}
	ps, err := puzzle.GamePositions(start, notes)
	if err != nil {
		return nil, fmt.Errorf("game #%d: %w", a.Number, err)
	}
	return ps, nil
}
