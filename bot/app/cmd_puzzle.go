package app

import (
	"context"
	"errors"
	"fmt"
	"hash/fnv"
	"math/rand/v2"
	"slices"
	"strconv"
	"strings"

	"github.com/tankbot/tankbot/bot/rating"
	"github.com/tankbot/tankbot/engine"
	"github.com/tankbot/tankbot/engine/games"
	"github.com/tankbot/tankbot/engine/puzzle"
	"github.com/tankbot/tankbot/store"
)

// /puzzle: a puzzle of the shipped collection, solved privately. Every
// answer is ephemeral; every move goes through the game's engine
// (ParseMove, Play); the solution is the puzzle's proven line.

var puzzleCmd = command{
	name: "puzzle",
	doc: "A puzzle near your puzzle rating, just to you (board from your side; `theme:` keeps one theme, autocomplete lists them); answer with `move:` (autocomplete lists the legal moves) or the board's Pick a move / Type a move buttons (the game's picker and form), " +
		"`hint:true` names the piece to move (once per puzzle, no rating gain), `stats:true` shows your puzzle ratings, streaks and solved counts.",
	opts: []optDef{
		{name: "game", typ: String, choices: gameChoices},
		{name: "theme", typ: String, suggest: suggestPuzzleTheme},
		{name: "move", typ: String, suggest: suggestPuzzleMove},
		{name: "hint", typ: Bool},
		{name: "stats", typ: Bool},
	},
	run:    (*Bot).puzzleCommand,
	routes: []route{puzzleRoute},
}

func (b *Bot) puzzleCommand(ctx context.Context, r *req) ([]Reply, error) {
	switch {
	case r.Options["stats"] == "true":
		return b.puzzleStats(ctx, r)
	case r.Options["hint"] == "true":
		return b.puzzleHint(ctx, r)
	case strings.TrimSpace(r.Options["move"]) != "":
		return b.puzzleMove(ctx, r, strings.TrimSpace(r.Options["move"]))
	}
	return b.puzzleStart(ctx, r)
}

func (b *Bot) puzzleStart(ctx context.Context, r *req) ([]Reply, error) {
	game := strings.TrimSpace(r.Options["game"])
	if game == "" {
		game = defaultGame()
	}
	ps, err := puzzle.Shipped(game)
	if err != nil || len(ps) == 0 {
		if _, known := games.Describe(game); !known || err == nil {
			return nil, refuse("refuse.puzzle.game", clipRunes(game, maxInput), strings.Join(puzzle.Games, ", "))
		}
		return nil, wrap("shipped puzzles", err)
	}
	// A puzzle in progress is shown again: starting another would skip a
	// hard one without its rating counting.
	if st, err := b.activePuzzle(ctx, r); err == nil {
		return b.puzzleBoard(r, st, nil, r.t("puzzle.again"))
	}
	rt := rating.New().Rating
	if pr, err := b.st.PuzzleRating(ctx, r.User.ID, game); err == nil {
		rt = pr.Rating
	} else if !errors.Is(err, store.ErrNotFound) {
		return nil, err
	}
	tried, err := b.st.PuzzlesTried(ctx, r.User.ID, game)
	if err != nil {
		return nil, err
	}
	h := fnv.New64a()
	h.Write([]byte(r.User.ID))
	rng := rand.New(rand.NewPCG(uint64(b.clk.Now().UnixNano()), h.Sum64()))
	own, err := b.serverPuzzles(ctx, r.GuildID, game)
	if err != nil {
		return nil, err
	}
	all := append(append([]*puzzle.Puzzle{}, ps...), own...)
	if theme := strings.TrimSpace(r.Options["theme"]); theme != "" {
		ps, own = withTheme(ps, theme), withTheme(own, theme)
		if len(ps)+len(own) == 0 {
			var names []string
			for _, tc := range puzzle.Themes(all) {
				names = append(names, tc.Theme)
			}
			return nil, refuse("refuse.puzzle.theme", game, clipRunes(theme, maxInput), strings.Join(names, ", "))
		}
	}
	cur, err := b.st.PuzzleCurrentRatings(ctx, game)
	if err != nil {
		return nil, err
	}
	pz := choosePuzzle(ps, own, rt, tried, cur, rng)
	a := &store.ActivePuzzle{Player: r.User.ID, Game: game, PuzzleID: pz.ID, Started: b.clk.Now()}
	if err := b.st.SetActivePuzzle(ctx, a); err != nil {
		return nil, err
	}
	pos, err := pz.Decode()
	if err != nil {
		return nil, err
	}
	return b.puzzleBoard(r, &puzzleState{a, pz, pos}, nil, "")
}

// suggestPuzzleTheme lists the themes of the chosen game's puzzles (the
// default game's without one) that start with what was typed, with how
// many puzzles have each.
func suggestPuzzleTheme(b *Bot, ctx context.Context, r *req, typed string) []Choice {
	game := strings.TrimSpace(r.Options["game"])
	if game == "" {
		game = defaultGame()
	}
	ps, err := puzzle.Shipped(game)
	if err != nil {
		return nil
	}
	typed = strings.ToLower(strings.TrimSpace(typed))
	var out []Choice
	for _, tc := range puzzle.Themes(ps) {
		if strings.HasPrefix(tc.Theme, typed) && len(out) < 25 {
			out = append(out, Choice{Name: fmt.Sprintf("%s (%d)", tc.Theme, tc.N), Value: tc.Theme})
		}
	}
	return out
}

// withTheme keeps the puzzles tagged with theme.
func withTheme(ps []*puzzle.Puzzle, theme string) []*puzzle.Puzzle {
	var out []*puzzle.Puzzle
	for _, p := range ps {
		if slices.Contains(p.Themes, theme) {
			out = append(out, p)
		}
	}
	return out
}

func suggestPuzzleMove(b *Bot, ctx context.Context, r *req, typed string) []Choice {
	st, err := b.activePuzzle(ctx, r)
	if err != nil {
		return nil
	}
	return posMoves(r, st.pos, typed)
}

func (b *Bot) puzzleMove(ctx context.Context, r *req, text string) ([]Reply, error) {
	st, err := b.activePuzzle(ctx, r)
	if err != nil {
		return nil, err
	}
	m, err := st.pos.ParseMove(text)
	if err != nil {
		return nil, illegal(r, err)
	}
	next, err := st.pos.Play(m)
	if err != nil {
		return nil, illegal(r, err)
	}
	note := st.pos.FormatMove(m)
	k := 2 * st.a.Step
	_, wantMove, err := playNote(st.pos, st.pz.Solution[k])
	if err != nil {
		return nil, wrap("puzzle "+st.pz.ID, err)
	}
	last := k == len(st.pz.Solution)-1
	solver := st.pos.Turn()
	right := note == st.pos.FormatMove(wantMove)
	if !right && last {
		// Any move that wins at once finishes the puzzle too.
		if w, ok := next.Status().Winner(); ok && w == solver {
			right = true
		}
	}
	if !right {
		head := r.t("puzzle.wrong", note, strings.Join(st.pz.Solution[k:], " "))
		// The refutation, when the defender wins at once: shown on the
		// board.
		if after, rm := refutation(next); after != nil {
			head += "\n" + r.t("puzzle.refuted", r.t("game."+next.Turn().String()), next.FormatMove(rm))
			next, m = after, rm
		}
		return b.puzzleEnd(ctx, r, st, next, m, false, head)
	}
	if last {
		return b.puzzleEnd(ctx, r, st, next, m, true, r.t("puzzle.right", note))
	}
	reply := st.pz.Solution[k+1]
	after, rm, err := playNote(next, reply)
	if err != nil {
		return nil, wrap("puzzle "+st.pz.ID, err)
	}
	a := *st.a
	a.Step++
	if err := b.st.UpdateActivePuzzle(ctx, st.a, &a); errors.Is(err, store.ErrPuzzleMoved) {
		return nil, refuse("refuse.puzzle.moved")
	} else if err != nil {
		return nil, err
	}
	return b.puzzleBoard(r, &puzzleState{&a, st.pz, after}, rm,
		r.t("puzzle.right", note)+" "+r.t("puzzle.reply", r.t("game."+next.Turn().String()), next.FormatMove(rm)))
}

// puzzleEnd finishes the puzzle (rated on the first attempt) and shows
// the board after the last move played.
func (b *Bot) puzzleEnd(ctx context.Context, r *req, st *puzzleState, pos engine.Position, m engine.Move, solved bool, head string) ([]Reply, error) {
	var before *rating.Rating
	if pr, err := b.st.PuzzleRating(ctx, r.User.ID, st.pz.Game); err == nil {
		x := rating.Rating{Rating: pr.Rating, RD: pr.RD, Volatility: pr.Vol}
		before = &x
	}
	pr, first, err := b.st.FinishPuzzle(ctx, st.a, solved, b.clk.Now(), puzzleRate(st.pz))
	if errors.Is(err, store.ErrPuzzleMoved) {
		return nil, refuse("refuse.puzzle.moved")
	}
	if err != nil {
		return nil, err
	}
	b.dailyFinished(ctx, st.a, solved)
	switch {
	case !first:
		head += "\n" + r.t("puzzle.unrated")
	case solved && st.a.Hinted:
		head += "\n" + r.t("puzzle.hinted")
	default:
		old := rating.New()
		if before != nil {
			old = *before
		}
		now := rating.Rating{Rating: pr.Rating, RD: pr.RD, Volatility: pr.Vol}
		head += "\n" + r.t("puzzle.rating", r.t("gamename."+st.pz.Game), old.String(), now.String())
	}
	e := &Embed{Title: r.t("puzzle.title", st.pz.ID, gameLabel(r.loc, st.pz.Game, "", pos)), Description: head + "\n" + r.t("puzzle.next")}
	reply := Reply{Ephemeral: true, Embed: e, Game: st.pz.Game, Position: pos.Encode()}
	png, err := renderPNG(pos, m, st.pos.Turn() == engine.Black, r.loc, nil)
	if err != nil {
		b.log.Warn("render puzzle", "puzzle", st.pz.ID, "err", err)
	} else if png != nil {
		name := "puzzle-" + st.pz.ID + "-end.png"
		reply.Files = []File{{Name: name, ContentType: "image/png", Data: png, Description: positionAlt(r.loc, st.pz.Game, pos, st.pos, m)}}
		e.Image = name
		reply.FallbackText = r.t("game.noimage")
	}
	return []Reply{reply}, nil
}

// puzzleRate is the Glicko-2 update of a first attempt: the solver plays
// the puzzle (a new puzzle starts at its difficulty's rating). A hint
// costs the gain: a solve with a hint leaves the solver's rating as it was
// and counts as a draw for the puzzle.
func puzzleRate(pz *puzzle.Puzzle) store.PuzzleRateFunc {
	return func(player, pzr *store.Glicko, solved, hinted bool) (store.Glicko, store.Glicko) {
		p := rating.New()
		if player != nil {
			p = rating.Rating{Rating: player.Rating, RD: player.RD, Volatility: player.Vol}
		}
		q := rating.Rating{Rating: float64(pz.Rating), RD: rating.DefaultRD, Volatility: rating.DefaultVolatility}
		if pzr != nil {
			q = rating.Rating{Rating: pzr.Rating, RD: pzr.RD, Volatility: pzr.Vol}
		}
		score := rating.Loss
		if solved {
			score = rating.Win
		}
		np, nq := rating.Game(p, q, 0, 0, score)
		if solved && hinted {
			_, nq = rating.Game(p, q, 0, 0, rating.Draw)
			np = p
		}
		return store.Glicko{Rating: np.Rating, RD: np.RD, Vol: np.Volatility}, store.Glicko{Rating: nq.Rating, RD: nq.RD, Vol: nq.Volatility}
	}
}

func (b *Bot) puzzleHint(ctx context.Context, r *req) ([]Reply, error) {
	st, err := b.activePuzzle(ctx, r)
	if err != nil {
		return nil, err
	}
	if st.a.Hinted {
		return nil, refuse("refuse.puzzle.hinted")
	}
	m, err := st.pos.ParseMove(st.pz.Solution[2*st.a.Step])
	if err != nil {
		return nil, wrap("puzzle "+st.pz.ID, err)
	}
	a := *st.a
	a.Hinted = true
	if err := b.st.UpdateActivePuzzle(ctx, st.a, &a); errors.Is(err, store.ErrPuzzleMoved) {
		return nil, refuse("refuse.puzzle.hinted")
	} else if err != nil {
		return nil, err
	}
	steps := m.Steps()
	text := r.t("puzzle.hint.any")
	if len(steps) > 0 {
		text = r.t("puzzle.hint.square", steps[0])
		if namer, ok := st.pos.(interface{ PieceName(string) string }); ok {
			if p := namer.PieceName(steps[0]); p != "" {
				text = r.t("puzzle.hint", p, steps[0])
			}
		}
	}
	return []Reply{{Ephemeral: true, Content: text + "\n" + r.t("puzzle.hint.cost")}}, nil
}

func (b *Bot) puzzleStats(ctx context.Context, r *req) ([]Reply, error) {
	prs, err := b.st.PuzzleRatings(ctx, r.User.ID)
	if err != nil {
		return nil, err
	}
	by := map[string]*store.PuzzleRating{}
	for _, p := range prs {
		by[p.Game] = p
	}
	var lines []string
	for _, g := range puzzle.Games {
		label := r.t("gamename." + g) // the game, not a start: puzzles have many
		p, ok := by[g]
		if !ok {
			lines = append(lines, r.t("puzzle.stats.none", label))
			continue
		}
		rt := rating.Rating{Rating: p.Rating, RD: p.RD, Volatility: p.Vol}
		lines = append(lines, r.t("puzzle.stats.line", label, rt.String(), strconv.Itoa(p.Streak), strconv.Itoa(p.BestStreak),
			strconv.Itoa(p.Solved), strconv.Itoa(p.Clean), strconv.Itoa(p.Failed)))
	}
	e := &Embed{Title: r.t("puzzle.stats.title", r.User.Name), Description: strings.Join(lines, "\n")}
	return []Reply{{Ephemeral: true, Embed: e}}, nil
}

// refutation is a reply of the side to move in pos that wins the game at
// once, and the position after it (nil: none).
func refutation(pos engine.Position) (engine.Position, engine.Move) {
	if pos.Status().Over() {
		return nil, nil
	}
	for _, m := range pos.LegalMoves() {
		after, err := pos.Play(m)
		if err != nil {
			continue
		}
		if w, ok := after.Status().Winner(); ok && w == pos.Turn() {
			return after, m
		}
	}
	return nil, nil
}
