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
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"time"

	"github.com/tankbot/tankbot/engine"
	"github.com/tankbot/tankbot/engine/ai"
	"github.com/tankbot/tankbot/engine/games"
	"github.com/tankbot/tankbot/engine/puzzle"
	"github.com/tankbot/tankbot/store"
)

// puzzleClock times generation runs; tests replace it.
var puzzleClock = time.Now

func runPuzzles(args []string, stdout, stderr io.Writer) error {
	top := newFlags("puzzles")
	if len(args) == 0 {
		return usageError{top, errors.New("give a puzzles command: generate, build, rates or list")}
	}
	switch args[0] {
	case "generate":
		return runPuzzlesGenerate(args[1:], stdout, stderr)
	case "list":
		return runPuzzlesList(args[1:], stdout)
	case "build":
		return runPuzzlesBuild(args[1:], stdout, stderr)
	case "rates":
		return runPuzzlesRates(args[1:], stdout)
	}
	if strings.HasPrefix(args[0], "-") {
		if err := parseFlags(top, args); err != nil {
			return err
		}
	}
	return usageError{top, fmt.Errorf("unknown puzzles command %q (generate, build, rates, list)", args[0])}
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
	// Strong self-play runs (--ai): the triviality filter, one puzzle per
	// solution, at most perGame puzzles per game of origin.
	keepTrivial bool
	perGame     int
	minPly      int
	peek        int64 // nodes of the quick ai look at a deviation
	// screen, when above 0, replaces the ai look by the prover's own
	// bounded search (puzzle.ScreenDeviations) within this many moves and
	// move lists per deviation, trying tries moves a position.
	screen      int64
	screenDepth int
	tries       int
	cutLine     bool // --resume: the file's last line has no newline
	noCommander bool // quick runs: no blunder that moves the commander
	screenOwn   bool // --screen-own: the games' own positions are screened too
	// commanderTries: commander moves screened per position besides tries
	commanderTries int
	// screenFn is the screen's search: puzzle.ShortestWin, or with
	// --screen-forcing puzzle.ShortestForcingWin
	screenFn puzzle.Screener
	dedup    map[string]bool // DedupKey of kept puzzles
	fromGame map[string]int  // puzzles kept per game of origin
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
	aiGames := fs.Int("ai", 0, "number of strong self-play games to mine (engine/ai, level 4-5 against 3-5), from --first")
	minPly := fs.Int("min-ply", 10, "with --ai: mine positions from this ply of each game on (never its opening)")
	perGame := fs.Int("per-game", 3, "with --ai: at most this many puzzles from one game")
	keepTrivial := fs.Bool("keep-trivial", false, "keep puzzles the triviality filter refuses")
	peek := fs.Int64("peek", 20000, "with --ai: nodes of the quick search that picks which deviations to prove")
	screen := fs.Int64("screen", 0, "screen deviations with the prover's own search within this many moves and move lists each instead of the ai look (0: the ai look, --peek)")
	screenDepth := fs.Int("screen-depth", 2, "with --screen: the deepest win the screen looks for")
	tries := fs.Int("tries", 8, "with --screen: moves tried per position")
	commanderTries := fs.Int("commander-tries", 0, "with --screen and --selfplay: also try this many moves of the mover's commander per position (Tank Chess: its CLT), besides --tries moves of other pieces")
	noCommander := fs.Bool("no-commander-blunders", false, "quick runs: leave out blunders that move the commander (Tank Chess: a CLT driving into fire)")
	resume := fs.Bool("resume", false, "with --ai or --selfplay: continue the run in --out (games it finished are skipped, its puzzles count for the duplicate and per-game rules) instead of starting the file again")
	screenOwn := fs.Bool("screen-own", false, "with --screen and --selfplay: screen the games' own positions too before their proof (a proof of a position without a win costs its whole budget)")
	screenForcing := fs.Bool("screen-forcing", false, "with --screen: at the screen's deepest win try only first moves that announce a check or an escape (wins in three: a full screen spends its budget on quiet moves)")
	tail := fs.Int("tail", 0, "with --selfplay: mine only each game's last N positions, where its decisive tactics are (0: every position from --from-ply)")
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
	if *selfplay <= 0 && *archive == "" && *aiGames <= 0 {
		return errors.New("nothing to mine: give --ai N, --selfplay N and/or --from-archive DB")
	}
	if *archive != "" && *guilds == "" {
		return errors.New("--from-archive needs --guild (the archive is kept per server)")
	}
	if *aiGames < 0 || *minPly < 0 || *perGame < 0 || *peek < 1 || *screen < 0 || *tries < 0 || *commanderTries < 0 || *screenDepth < 2 || *screenDepth > puzzle.MaxDepth {
		return fmt.Errorf("--ai, --min-ply, --per-game, --screen, --tries and --commander-tries must be >= 0, --peek >= 1, --screen-depth 2..%d", puzzle.MaxDepth)
	}
	if *resume && *aiGames <= 0 && *selfplay <= 0 {
		return errors.New("--resume goes with --ai or --selfplay")
	}
	if *tail < 0 {
		return errors.New("--tail must be >= 0")
	}
	if *selfplay < 0 || *first < 0 || *plies < 1 || *limit < 0 || *devs < 0 || *fromPly < 0 || *depth < 0 || *depth > puzzle.MaxDepth || *budget < 0 || *verifyBudget < 0 {
		return fmt.Errorf("--selfplay, --first, --limit, --from-ply, --budget, --verify-budget must be >= 0, --max-plies >= 1, --depth 0..%d", puzzle.MaxDepth)
	}
	set := puzzle.DefaultSettings(r.Name())
	if *aiGames > 0 {
		set = puzzle.StrongSettings(r.Name())
	}
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
	g := &genRun{game: r.Name(), set: set, stderr: stderr, seen: map[string]bool{}, limit: *limit, deviations: *devs, forced: *forced, start: puzzleClock(),
		keepTrivial: *keepTrivial, perGame: *perGame, minPly: *minPly, peek: *peek, screen: *screen, screenDepth: *screenDepth, tries: *tries, noCommander: *noCommander, screenOwn: *screenOwn, commanderTries: *commanderTries, screenFn: puzzle.ShortestWin}
	if *screenForcing {
		g.screenFn = puzzle.ShortestForcingWin
	}
	g.lastShow = g.start
	var done map[int]bool
	if *resume {
		g.dedup, g.fromGame = map[string]bool{}, map[string]int{}
		if done, err = g.resume(r.Name(), *out); err != nil {
			return err
		}
	}
	flag := os.O_CREATE | os.O_WRONLY | os.O_TRUNC
	if *resume {
		flag = os.O_CREATE | os.O_WRONLY | os.O_APPEND
	}
	f, err := os.OpenFile(*out, flag, 0o644)
	if err != nil {
		return err
	}
	defer f.Close()
	g.out = bufio.NewWriter(f)
	if g.cutLine {
		g.out.WriteString("\n") // a killed run's last line ends here
	}
	if *aiGames > 0 {
		if g.dedup == nil {
			g.dedup, g.fromGame = map[string]bool{}, map[string]int{}
		}
		if done == nil {
			fmt.Fprintf(g.out, "# tankbot puzzles generate --game %s --seed %d --first %d --ai %d --max-plies %d --min-ply %d --per-game %d --keep-trivial=%t --peek %d --screen %d%s --screen-depth %d --tries %d --min-depth %d --depth %d --budget %d --verify-budget %d --deviations %d\n%s\n",
				r.Name(), *seed, *first, *aiGames, *plies, *minPly, *perGame, *keepTrivial, *peek, *screen, forcingFlag(*screenForcing), *screenDepth, *tries, set.MinDepth, set.MaxDepth, set.Budget, set.VerifyBudget, *devs, puzzle.Header)
		}
		for k := *first; k < *first+*aiGames && !g.full(); k++ {
			if done[k] {
				continue
			}
			source := fmt.Sprintf("aiplay:%d:%d", *seed, k)
			ag, err := puzzle.AISelfPlayFunc(context.Background(), r, *seed, k, *plies, func(ply int, pos engine.Position, score int) bool {
				g.mineAI(pos, ply, score, source)
				return !g.full() && !g.gameFull(source)
			})
			if err != nil {
				return fmt.Errorf("strong self-play game %d: %w", k, err)
			}
			// The marker makes the run resumable: --resume skips this game.
			fmt.Fprintf(g.out, "%s%d\n", gameDoneMarker, k)
			if err := g.out.Flush(); err != nil {
				return err
			}
			g.progress(fmt.Sprintf("strong self-play game %d/%d (levels %d-%d)", k-*first+1, *aiGames, ag.White, ag.Black), false)
		}
		return g.finish(f, *out, stdout)
	}
	if done == nil {
		tailFlag := ""
		if *tail > 0 {
			// only runs that use it print it: older runs' lines stay as they were
			tailFlag = fmt.Sprintf(" --tail %d", *tail)
		}
		if *screenOwn {
			tailFlag += " --screen-own"
		}
		if *commanderTries > 0 {
			tailFlag += fmt.Sprintf(" --commander-tries %d", *commanderTries)
		}
		tailFlag += forcingFlag(*screenForcing)
		fmt.Fprintf(g.out, "# tankbot puzzles generate --game %s --seed %d --first %d --selfplay %d --max-plies %d --from-ply %d%s --keep-trivial=%t --no-commander-blunders=%t --screen %d --screen-depth %d --tries %d --min-depth %d --depth %d --budget %d --verify-budget %d --forcing %d --forced-blunders=%t --deviations %d\n%s\n",
			r.Name(), *seed, *first, *selfplay, *plies, *fromPly, tailFlag, *keepTrivial, *noCommander, *screen, *screenDepth, *tries, set.MinDepth, set.MaxDepth, set.Budget, set.VerifyBudget, set.Forcing, *forced, *devs, puzzle.Header)
	}
	if *archive != "" {
		if err := g.mineArchive(r, *archive, strings.Split(*guilds, ",")); err != nil {
			return err
		}
	}
	for k := *first; k < *first+*selfplay && !g.full(); k++ {
		if done[k] {
			continue
		}
		ps, err := puzzle.SelfPlay(r, *seed, k, *plies)
		if err != nil {
			return fmt.Errorf("self-play game %d: %w", k, err)
		}
		from := *fromPly
		if *tail > 0 {
			from = max(from, len(ps)-*tail)
		}
		g.mine(ps, fmt.Sprintf("selfplay:%d:%d", *seed, k), from)
		if *resume {
			// The marker makes the run resumable: --resume skips this game.
			fmt.Fprintf(g.out, "%s%d\n", gameDoneMarker, k)
			if err := g.out.Flush(); err != nil {
				return err
			}
		}
		g.progress(fmt.Sprintf("self-play game %d/%d", k-*first+1, *selfplay), false)
	}
	return g.finish(f, *out, stdout)
}

// finish closes the output and prints the run's figures.
func (g *genRun) finish(f *os.File, out string, stdout io.Writer) error {
	if err := g.out.Flush(); err != nil {
		return err
	}
	if err := f.Close(); err != nil {
		return err
	}
	g.progress("done", true)
	el := puzzleClock().Sub(g.start)
	fmt.Fprintf(stdout, "%s: %d puzzles from %d positions in %s (%.1f puzzles/minute; %d positions over the search budget; by depth %s) -> %s\n",
		g.game, g.found, g.positions, el.Round(time.Second), perMinute(g.found, el), g.budget, g.depthCounts(), out)
	fmt.Fprintf(stdout, "refused: %s\n", g.refusals())
	return nil
}

// gameDoneMarker starts the comment line a strong self-play run writes
// after each game it finished.
const gameDoneMarker = "# done game "

// resume reads a run's output file so far: the games it finished, and
// its puzzles for the duplicate and per-game rules. A missing file is a
// run not started yet.
func (g *genRun) resume(game, name string) (map[int]bool, error) {
	b, err := os.ReadFile(name)
	if errors.Is(err, os.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	done := map[int]bool{}
	g.cutLine = len(b) > 0 && b[len(b)-1] != '\n'
	for _, l := range strings.Split(string(b), "\n") {
		if k, ok := strings.CutPrefix(l, gameDoneMarker); ok {
			var n int
			if _, err := fmt.Sscan(k, &n); err != nil {
				return nil, fmt.Errorf("%s: bad line %q", name, l)
			}
			done[n] = true
			continue
		}
		if l == "" || strings.HasPrefix(l, "#") {
			continue
		}
		pz, err := puzzle.ParseLine(game, l)
		if err != nil {
			// a line cut short by a killed run: the rest is whole
			fmt.Fprintf(g.stderr, "%s: skipping a damaged line: %v\n", name, err)
			continue
		}
		g.seen[pz.ID] = true
		g.dedup[puzzle.DedupKey(pz)] = true
		g.fromGame[puzzle.OriginGame(pz.Source)]++
	}
	return done, nil
}

// mineAI mines one position of a game of strong self-play (from minPly
// on): the position itself when its mover's search saw a forced win
// within the depth, and positions other moves would have given (a
// blunder, moves drawn at random) where a quick search sees the opponent
// win within the depth. The game stops at perGame puzzles.
func (g *genRun) mineAI(pos engine.Position, ply, score int, source string) {
	if ply < g.minPly || g.full() || g.gameFull(source) {
		return
	}
	where := fmt.Sprintf("%s:%d", source, ply)
	if puzzle.WinWithin(score, g.set.MaxDepth) && g.try(pos, where) {
		return
	}
	if g.deviations == 0 {
		return
	}
	// Other moves drawn at random, never a blunder that hands over a win
	// at once: a position one move away from the game's is kept only
	// with a win of two moves or more (the commander driving into fire
	// is not a puzzle).
	deep := g.set
	deep.MinDepth = max(2, deep.MinDepth)
	if g.screen > 0 {
		// The prover's own bounded search picks the candidates: cheaper
		// than an ai look, and it answers exactly the question the proof
		// asks (a win of two moves or more, none in one).
		sc, err := puzzle.ScreenDeviationsWith(g.screenFn, pos, hashString(where), g.tries, 0, 2, min(g.screenDepth, g.set.MaxDepth), g.screen)
		if err != nil {
			return
		}
		for _, d := range sc {
			if g.full() || g.gameFull(source) {
				return
			}
			set := deep
			set.MaxDepth = max(d.Win, set.MinDepth)
			if g.tryWith(d.Position, where+":"+d.Move, set) {
				return
			}
		}
		return
	}
	devs, err := puzzle.Deviations(pos, hashString(where), g.deviations, 0)
	if err != nil {
		return
	}
	ctx := context.Background()
	for _, d := range devs {
		if g.full() || g.gameFull(source) {
			return
		}
		if !puzzle.SeesWin(ctx, d.Position, g.peek, g.set.MaxDepth) {
			continue
		}
		if g.tryWith(d.Position, where+":"+d.Move, deep) {
			return
		}
	}
}

func (g *genRun) gameFull(source string) bool {
	return g.perGame > 0 && g.fromGame[puzzle.OriginGame(source)] >= g.perGame
}

// refusals is the refusal counts as plain text, by count: "second
// solution 12, trivial: only shot 4" ("none" without any).
func (g *genRun) refusals() string {
	if len(g.refused) == 0 {
		return "none"
	}
	keys := make([]string, 0, len(g.refused))
	for k := range g.refused {
		keys = append(keys, k)
	}
	sort.Slice(keys, func(a, b int) bool {
		if g.refused[keys[a]] != g.refused[keys[b]] {
			return g.refused[keys[a]] > g.refused[keys[b]]
		}
		return keys[a] < keys[b]
	})
	parts := make([]string, len(keys))
	for i, k := range keys {
		parts[i] = fmt.Sprintf("%s %d", k, g.refused[k])
	}
	return strings.Join(parts, ", ")
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
		if g.full() || (g.dedup != nil && g.gameFull(source)) {
			return
		}
		where := fmt.Sprintf("%s:%d", source, ply)
		if g.screen > 0 && g.screenOwn {
			// The game's own position goes through the same screen as
			// the deviations: a proof of a position without a win costs
			// its whole budget, the screen a fraction of it.
			if w := g.screenFn(pos, min(g.screenDepth, g.set.MaxDepth), g.screen); w >= max(1, g.set.MinDepth) {
				set := g.set
				set.MaxDepth = w
				if g.tryWith(pos, where, set) {
					continue
				}
			}
			if g.deviations == 0 {
				continue
			}
		} else if g.try(pos, where) || g.deviations == 0 {
			continue
		}
		if g.screen > 0 {
			// The prover's screen picks the deviations with a win of two
			// moves or more (see mineAI); each is proven with the bound it
			// found, and at most one is kept a position.
			sc, err := puzzle.ScreenDeviationsWith(g.screenFn, pos, hashString(where), g.tries, g.commanderTries, max(2, g.set.MinDepth), min(g.screenDepth, g.set.MaxDepth), g.screen)
			if err != nil {
				continue
			}
			for _, d := range sc {
				set := g.set
				set.MinDepth, set.MaxDepth = max(2, set.MinDepth), d.Win
				if g.full() || g.tryWith(d.Position, where+":"+d.Move, set) {
					break
				}
			}
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
		var skip func(engine.Position, engine.Move) bool
		if g.noCommander {
			skip = puzzle.MovesCommander
		}
		devs, err := puzzle.DeviationsExcept(pos, hashString(where), quiet, blunders, skip)
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
	return g.tryWith(pos, source, g.set)
}

// tryWith is try with other settings.
func (g *genRun) tryWith(pos engine.Position, source string, set puzzle.Settings) bool {
	g.positions++
	pz, err := g.accept(pos, set)
	switch {
	case errors.Is(err, puzzle.ErrBudget):
		g.budget++
	case errors.Is(err, puzzle.ErrSecond):
		why := "second solution"
		if m := secondMove.FindStringSubmatch(err.Error()); m != nil && m[1] != "1" {
			why += " at move " + m[1]
		}
		g.refuse(why)
	case errors.Is(err, puzzle.ErrShallow):
		g.refuse("faster win")
	case errors.Is(err, puzzle.ErrForced):
		g.refuse("trivial: only move")
	case err != nil && !errors.Is(err, puzzle.ErrNoWin) && !errors.Is(err, puzzle.ErrDraft):
		// which solver move failed the deeper check tells where the
		// rate is lost (the first move's slower second solutions, or a
		// later step's)
		why := "verification"
		if m := verifyMove.FindStringSubmatch(err.Error()); m != nil {
			why += " at move " + m[1]
		}
		g.refuse(why)
	}
	if errors.Is(err, errTrivial) {
		return false
	}
	if err != nil || g.seen[pz.ID] {
		return false
	}
	if g.dedup != nil {
		// strong self-play runs: de-duplication
		k := puzzle.DedupKey(pz)
		if g.dedup[k] {
			g.refuse("same solution")
			return false
		}
		g.dedup[k] = true
		g.fromGame[puzzle.OriginGame(source)]++
	}
	g.seen[pz.ID] = true
	pz.Source = source
	g.found++
	g.depths[pz.Depth]++
	fmt.Fprintln(g.out, pz.Line())
	g.out.Flush() // a long run killed midway keeps what it found
	return true
}

// verifyMove finds the solution move a Verify error names.
var verifyMove = regexp.MustCompile(` move (\d+): `)

// secondMove finds the solution move a second solution was found at.
var secondMove = regexp.MustCompile(`solution at move (\d+):`)

// errTrivial marks a candidate the triviality filter refused (counted
// by reason).
var errTrivial = errors.New("trivial")

// accept is puzzle.Accept with the triviality filter (unless the run
// keeps trivial puzzles) between the proof and the deeper verification:
// the filter is cheap, and in Tank Chess most wins in one are the only
// shot on the board, whose verification would be wasted.
func (g *genRun) accept(pos engine.Position, set puzzle.Settings) (*puzzle.Puzzle, error) {
	pz, err := puzzle.Find(pos, puzzle.Options{MinDepth: set.MinDepth, MaxDepth: set.MaxDepth, Budget: set.Budget, Forcing: set.Forcing, Strict: 1})
	if err != nil {
		return nil, err
	}
	if !g.keepTrivial {
		why, err := puzzle.Trivial(pz)
		if err != nil {
			return nil, err
		}
		if len(why) > 0 {
			for _, w := range why {
				g.refuse("trivial: " + strings.ReplaceAll(w, "-", " "))
			}
			return nil, errTrivial
		}
	}
	if err := puzzle.Verify(pz, 1, set.VerifyBudget); err != nil {
		return nil, err
	}
	return pz, nil
}

func (g *genRun) refuse(why string) {
	if g.refused == nil {
		g.refused = map[string]int{}
	}
	g.refused[why]++
}

// forcingFlag is --screen-forcing as a run's recorded command line
// writes it: only runs that use it print it.
func forcingFlag(on bool) string {
	if on {
		return " --screen-forcing"
	}
	return ""
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
	fmt.Fprintf(g.stderr, "%s %s: %d positions, %d puzzles (by depth %s), %.1f puzzles/minute, %s; refused: %s; %d over budget\n",
		g.game, what, g.positions, g.found, g.depthCounts(), perMinute(g.found, el), el.Round(time.Second), g.refusals(), g.budget)
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

// runPuzzlesBuild makes a collection file from generated ones: every
// puzzle described again (themes), the curator's rules applied in file
// order (triviality, opening, one per solution, at most --per-game per
// game of origin), and each kept one rated by the difficulty ladder.
func runPuzzlesBuild(args []string, stdout, stderr io.Writer) error {
	fs := newFlags("puzzles build")
	game := fs.String("game", "", "game: "+strings.Join(games.Names(), ", "))
	out := fs.String("out", "", "collection file to write")
	minPly := fs.Int("min-ply", 10, "refuse puzzles from a game's first plies")
	perGame := fs.Int("per-game", 3, "at most this many puzzles from one game")
	from := fs.String("from", "", "comma-separated generated files to build from, in order (earlier ones win a shared solution)")
	measure := fs.Bool("measure", true, "rate each puzzle by the difficulty ladder (off: keep the files' ratings)")
	deepShare := fs.Float64("deep-share", 0, "at least this share of the kept puzzles deeper than one move (0 to 0.9): wins in one past the share are refused, the last ones in file order first (0: no share)")
	rated := fs.String("rated", "", "comma-separated collection files built by this version whose ladder ratings are reused for the same puzzle (id and line), instead of measuring it again")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	known := map[string]int{} // a built line (rating cleared) -> its rating
	if *rated != "" {
		for _, name := range strings.Split(*rated, ",") {
			b, err := os.ReadFile(name)
			if err != nil {
				return err
			}
			ps, err := puzzle.ParseFile(*game, string(b))
			if err != nil {
				return fmt.Errorf("%s: %w", name, err)
			}
			for _, p := range ps {
				known[ratingKey(p)] = p.Rating
			}
		}
	}
	r, err := games.Lookup(*game)
	if err != nil {
		return err
	}
	if *out == "" || *from == "" {
		return errors.New("give --out and --from (the generated files to build from)")
	}
	if *minPly < 0 || *perGame < 0 {
		return errors.New("--min-ply and --per-game must be >= 0")
	}
	if *deepShare < 0 || *deepShare > 0.9 {
		return errors.New("--deep-share must be 0 to 0.9")
	}
	// A share of deep puzzles: a first pass counts the deep puzzles the
	// curator admits, which allows so many wins in one; the real pass
	// refuses the wins in one past it before the curator sees them, so
	// they take no puzzle's place (of its game, of its solution).
	shallowLeft := -1 // wins in one still allowed (-1: any)
	if *deepShare > 0 {
		pre := &puzzle.Curator{MinPly: *minPly, PerGame: *perGame}
		deep := 0
		for _, name := range strings.Split(*from, ",") {
			b, err := os.ReadFile(name)
			if err != nil {
				return err
			}
			ps, err := puzzle.ParseFile(*game, string(b))
			if err != nil {
				return fmt.Errorf("%s: %w", name, err)
			}
			for _, pz := range ps {
				if ok, _, err := pre.Admit(pz); err != nil {
					return fmt.Errorf("puzzle %s: %w", pz.ID, err)
				} else if ok && pz.Depth > 1 {
					deep++
				}
			}
		}
		shallowLeft = int(float64(deep) * (1 - *deepShare) / *deepShare)
	}
	// The output keeps the inputs' layout: each run's command line, then
	// the puzzles of that run that were kept.
	var sb strings.Builder
	var bases []string
	for _, name := range strings.Split(*from, ",") {
		bases = append(bases, filepath.Base(name))
	}
	fmt.Fprintf(&sb, "# tankbot puzzles build --game %s --min-ply %d --per-game %d --deep-share %g --measure=%t --from %s\n%s\n", r.Name(), *minPly, *perGame, *deepShare, *measure, strings.Join(bases, ","), puzzle.Header)
	c := &puzzle.Curator{MinPly: *minPly, PerGame: *perGame, Refused: map[string]int{}}
	ctx := context.Background()
	depths := map[int]int{}
	total, kept := 0, 0
	for _, name := range strings.Split(*from, ",") {
		b, err := os.ReadFile(name)
		if err != nil {
			return err
		}
		if _, err := puzzle.ParseFile(r.Name(), string(b)); err != nil {
			return fmt.Errorf("%s: %w", name, err)
		}
		for _, l := range strings.Split(string(b), "\n") {
			if strings.HasPrefix(l, "# tankbot puzzles generate") {
				sb.WriteString(l + "\n")
			}
			if l == "" || strings.HasPrefix(l, "#") {
				continue
			}
			pz, err := puzzle.ParseLine(r.Name(), l)
			if err != nil {
				return fmt.Errorf("%s: %w", name, err)
			}
			total++
			if pz.Depth == 1 && shallowLeft == 0 {
				c.Refused[refuseShare]++
				continue
			}
			fileRating := pz.Rating // Admit describes the puzzle again, which resets it
			ok, _, err := c.Admit(pz)
			if err != nil {
				return fmt.Errorf("puzzle %s: %w", pz.ID, err)
			}
			if !ok {
				continue
			}
			if pz.Depth == 1 && shallowLeft > 0 {
				shallowLeft--
			}
			if rt, ok := known[ratingKey(pz)]; ok && *measure {
				pz.Rating = rt
			} else if *measure {
				_, rt, err := puzzle.Measure(ctx, pz)
				if err != nil {
					return fmt.Errorf("puzzle %s: %w", pz.ID, err)
				}
				pz.Rating = rt
			} else {
				pz.Rating = fileRating
			}
			pz.Difficulty = puzzle.DifficultyOfRating(pz.Rating)
			sb.WriteString(pz.Line() + "\n")
			kept++
			depths[pz.Depth]++
			fmt.Fprintf(stderr, "%s %d: kept %d\n", r.Name(), total, kept)
		}
	}
	if err := os.WriteFile(*out, []byte(sb.String()), 0o644); err != nil {
		return err
	}
	refused := make([]string, 0, len(c.Refused))
	for k := range c.Refused {
		refused = append(refused, k)
	}
	sort.Strings(refused)
	parts := make([]string, len(refused))
	for i, k := range refused {
		parts[i] = fmt.Sprintf("%s %d", strings.ReplaceAll(k, "-", " "), c.Refused[k])
	}
	dp := make([]string, 0, len(depths))
	for d := 1; d <= puzzle.MaxDepth; d++ {
		if depths[d] > 0 {
			dp = append(dp, fmt.Sprintf("%d: %d", d, depths[d]))
		}
	}
	fmt.Fprintf(stdout, "%s: kept %d of %d (by depth %s) -> %s\nrefused: %s\n", r.Name(), kept, total, strings.Join(dp, ", "), *out, strings.Join(parts, ", "))
	return nil
}

// refuseShare counts the wins in one refused for the share of deep
// puzzles (build --deep-share).
const refuseShare = "deep-share"

// ratingKey is what a ladder rating depends on: the game, the position
// and the solution.
func ratingKey(p *puzzle.Puzzle) string {
	return p.Game + "\t" + p.Position + "\t" + strings.Join(p.Solution, puzzle.MoveSep)
}

// runPuzzlesRates prints, for the shipped puzzles of a game, how often
// each ai level (its own node budget and noise, never a clock) solves the
// puzzles of each starting rating: the check that ratings mean something.
func runPuzzlesRates(args []string, stdout io.Writer) error {
	fs := newFlags("puzzles rates")
	game := fs.String("game", "", "game: "+strings.Join(games.Names(), ", "))
	every := fs.Int("every", 1, "try every n-th puzzle (a sample; 1: all)")
	seeds := fs.Int("seeds", 1, "tries per level and puzzle, each with its own noise seed")
	file := fs.String("file", "", "collection file to measure (default: the shipped collection)")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	r, err := games.Lookup(*game)
	if err != nil {
		return err
	}
	if *every < 1 || *seeds < 1 {
		return errors.New("--every and --seeds must be >= 1")
	}
	var ps []*puzzle.Puzzle
	if *file != "" {
		b, err := os.ReadFile(*file)
		if err != nil {
			return err
		}
		if ps, err = puzzle.ParseFile(r.Name(), string(b)); err != nil {
			return fmt.Errorf("%s: %w", *file, err)
		}
	} else if ps, err = puzzle.Shipped(r.Name()); err != nil {
		return err
	}
	ctx := context.Background()
	type cell struct{ solved, tried int }
	rates := map[int]*[ai.Levels + 1]cell{}
	count := map[int]int{}
	for i := 0; i < len(ps); i += *every {
		pz := ps[i]
		if rates[pz.Rating] == nil {
			rates[pz.Rating] = &[ai.Levels + 1]cell{}
		}
		count[pz.Rating]++
		for lv := 1; lv <= ai.Levels; lv++ {
			for sd := 1; sd <= *seeds; sd++ {
				lim := ai.LevelLimits(lv)
				lim.MoveTime = time.Hour
				lim.Seed = int64(sd)
				ok, err := puzzle.Solves(ctx, pz, lim)
				if err != nil {
					return err
				}
				c := &rates[pz.Rating][lv]
				c.tried++
				if ok {
					c.solved++
				}
			}
		}
	}
	keys := make([]int, 0, len(rates))
	for k := range rates {
		keys = append(keys, k)
	}
	sort.Ints(keys)
	w := bufio.NewWriter(stdout)
	fmt.Fprintf(w, "| %s rating | puzzles |", r.Name())
	for lv := 1; lv <= ai.Levels; lv++ {
		fmt.Fprintf(w, " level %d |", lv)
	}
	fmt.Fprint(w, "\n|---|---|")
	for lv := 1; lv <= ai.Levels; lv++ {
		fmt.Fprint(w, "---|")
	}
	fmt.Fprintln(w)
	for _, k := range keys {
		fmt.Fprintf(w, "| %d | %d |", k, count[k])
		for lv := 1; lv <= ai.Levels; lv++ {
			c := rates[k][lv]
			fmt.Fprintf(w, " %.0f %% |", 100*float64(c.solved)/float64(c.tried))
		}
		fmt.Fprintln(w)
	}
	return w.Flush()
}
