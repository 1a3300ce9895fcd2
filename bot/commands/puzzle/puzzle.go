// Package puzzle holds /puzzle: a puzzle of the shipped collection, solved privately. Every
// answer is ephemeral; every move goes through the game's engine
// (ParseMove, Play); the solution is the puzzle's proven line.
package puzzle

import (
	"context"
	"errors"
	"hash/fnv"
	"math/rand/v2"
	"strconv"
	"strings"

	"github.com/tankbot/tankbot/bot/app"
	"github.com/tankbot/tankbot/bot/view"

	"github.com/tankbot/tankbot/bot/rating"
	"github.com/tankbot/tankbot/engine"
	"github.com/tankbot/tankbot/engine/games"
	"github.com/tankbot/tankbot/engine/puzzle"
	"github.com/tankbot/tankbot/store"
)

var Command = app.CommandDef{
	Name: "puzzle",
	Doc: "A puzzle near your puzzle rating, just to you (board from your side; `theme:` keeps one theme, autocomplete lists them); answer with `move:` (autocomplete lists the legal moves) or the board's Pick a move / Type a move buttons (the game's picker and form), " +
		"`hint:true` names the piece to move (once per puzzle, no rating gain), `stats:true` shows your puzzle ratings, streaks and solved counts.",
	Opts: []app.OptDef{
		{Name: "game", Typ: app.String, Choices: app.GameChoices},
		{Name: "theme", Typ: app.String, Suggest: app.SuggestPuzzleTheme},
		{Name: "move", Typ: app.String, Suggest: app.SuggestPuzzleMove},
		{Name: "hint", Typ: app.Bool},
		{Name: "stats", Typ: app.Bool},
	},
	Run:    puzzleCommand,
	Routes: []app.RouteDef{puzzleRoute},
}

func puzzleCommand(b *app.Bot, ctx context.Context, r *app.Req) ([]view.Reply, error) {
	switch {
	case r.Options["stats"] == "true":
		return puzzleStats(b, ctx, r)
	case r.Options["hint"] == "true":
		return puzzleHint(b, ctx, r)
	case strings.TrimSpace(r.Options["move"]) != "":
		return puzzleMove(b, ctx, r, strings.TrimSpace(r.Options["move"]))
	}
	return puzzleStart(b, ctx, r)
}

func puzzleStart(b *app.Bot, ctx context.Context, r *app.Req) ([]view.Reply, error) {
	game := strings.TrimSpace(r.Options["game"])
	if game == "" {
		game = app.DefaultGame()
	}
	ps, err := puzzle.Shipped(game)
	if err != nil || len(ps) == 0 {
		if _, known := games.Describe(game); !known || err == nil {
			return nil, app.Refuse("refuse.puzzle.game", view.ClipRunes(game, app.MaxInput), strings.Join(puzzle.Games, ", "))
		}
		return nil, app.Wrap("shipped puzzles", err)
	}
	// A puzzle in progress is shown again: starting another would skip a
	// hard one without its rating counting.
	if st, err := b.CurrentPuzzle(ctx, r); err == nil {
		return b.PuzzleBoard(r, st, nil, r.T("puzzle.again"))
	}
	rt := rating.New().Rating
	if pr, err := b.St.PuzzleRating(ctx, r.User.ID, game); err == nil {
		rt = pr.Rating
	} else if !errors.Is(err, store.ErrNotFound) {
		return nil, err
	}
	tried, err := b.St.PuzzlesTried(ctx, r.User.ID, game)
	if err != nil {
		return nil, err
	}
	h := fnv.New64a()
	h.Write([]byte(r.User.ID))
	rng := rand.New(rand.NewPCG(uint64(b.Clk.Now().UnixNano()), h.Sum64()))
	own, err := b.ServerPuzzles(ctx, r.GuildID, game)
	if err != nil {
		return nil, err
	}
	all := append(append([]*puzzle.Puzzle{}, ps...), own...)
	if theme := strings.TrimSpace(r.Options["theme"]); theme != "" {
		ps, own = app.WithTheme(ps, theme), app.WithTheme(own, theme)
		if len(ps)+len(own) == 0 {
			var names []string
			for _, tc := range puzzle.Themes(all) {
				names = append(names, tc.Theme)
			}
			return nil, app.Refuse("refuse.puzzle.theme", game, view.ClipRunes(theme, app.MaxInput), strings.Join(names, ", "))
		}
	}
	cur, err := b.St.PuzzleCurrentRatings(ctx, game)
	if err != nil {
		return nil, err
	}
	pz := app.ChoosePuzzle(ps, own, rt, tried, cur, rng)
	a := &store.ActivePuzzle{Player: r.User.ID, Game: game, PuzzleID: pz.ID, Started: b.Clk.Now()}
	if err := b.St.SetActivePuzzle(ctx, a); err != nil {
		return nil, err
	}
	pos, err := pz.Decode()
	if err != nil {
		return nil, err
	}
	return b.PuzzleBoard(r, &app.PuzzleState{Active: a, Puzzle: pz, Pos: pos}, nil, "")
}

func puzzleMove(b *app.Bot, ctx context.Context, r *app.Req, text string) ([]view.Reply, error) {
	st, err := b.CurrentPuzzle(ctx, r)
	if err != nil {
		return nil, err
	}
	m, err := st.Pos.ParseMove(text)
	if err != nil {
		return nil, app.Illegal(r, err)
	}
	next, err := st.Pos.Play(m)
	if err != nil {
		return nil, app.Illegal(r, err)
	}
	note := st.Pos.FormatMove(m)
	k := 2 * st.Active.Step
	_, wantMove, err := app.PlayNote(st.Pos, st.Puzzle.Solution[k])
	if err != nil {
		return nil, app.Wrap("puzzle "+st.Puzzle.ID, err)
	}
	last := k == len(st.Puzzle.Solution)-1
	solver := st.Pos.Turn()
	right := note == st.Pos.FormatMove(wantMove)
	if !right && last {
		// Any move that wins at once finishes the puzzle too.
		if w, ok := next.Status().Winner(); ok && w == solver {
			right = true
		}
	}
	if !right {
		head := r.T("puzzle.wrong", note, strings.Join(st.Puzzle.Solution[k:], " "))
		// The refutation, when the defender wins at once: shown on the
		// board.
		if after, rm := app.Refutation(next); after != nil {
			head += "\n" + r.T("puzzle.refuted", r.T("game."+next.Turn().String()), next.FormatMove(rm))
			next, m = after, rm
		}
		return puzzleEnd(b, ctx, r, st, next, m, false, head)
	}
	if last {
		return puzzleEnd(b, ctx, r, st, next, m, true, r.T("puzzle.right", note))
	}
	reply := st.Puzzle.Solution[k+1]
	after, rm, err := app.PlayNote(next, reply)
	if err != nil {
		return nil, app.Wrap("puzzle "+st.Puzzle.ID, err)
	}
	a := *st.Active
	a.Step++
	if err := b.St.UpdateActivePuzzle(ctx, st.Active, &a); errors.Is(err, store.ErrPuzzleMoved) {
		return nil, app.Refuse("refuse.puzzle.moved")
	} else if err != nil {
		return nil, err
	}
	return b.PuzzleBoard(r, &app.PuzzleState{Active: &a, Puzzle: st.Puzzle, Pos: after}, rm,
		r.T("puzzle.right", note)+" "+r.T("puzzle.reply", r.T("game."+next.Turn().String()), next.FormatMove(rm)))
}

// puzzleEnd finishes the puzzle (rated on the first attempt) and shows
// the board after the last move played.
func puzzleEnd(b *app.Bot, ctx context.Context, r *app.Req, st *app.PuzzleState, pos engine.Position, m engine.Move, solved bool, head string) ([]view.Reply, error) {
	var before *rating.Rating
	if pr, err := b.St.PuzzleRating(ctx, r.User.ID, st.Puzzle.Game); err == nil {
		x := rating.Rating{Rating: pr.Rating, RD: pr.RD, Volatility: pr.Vol}
		before = &x
	}
	pr, first, err := b.St.FinishPuzzle(ctx, st.Active, solved, b.Clk.Now(), puzzleRate(st.Puzzle))
	if errors.Is(err, store.ErrPuzzleMoved) {
		return nil, app.Refuse("refuse.puzzle.moved")
	}
	if err != nil {
		return nil, err
	}
	b.DailyFinished(ctx, st.Active, solved)
	switch {
	case !first:
		head += "\n" + r.T("puzzle.unrated")
	case solved && st.Active.Hinted:
		head += "\n" + r.T("puzzle.hinted")
	default:
		old := rating.New()
		if before != nil {
			old = *before
		}
		now := rating.Rating{Rating: pr.Rating, RD: pr.RD, Volatility: pr.Vol}
		head += "\n" + r.T("puzzle.rating", r.T("gamename."+st.Puzzle.Game), old.String(), now.String())
	}
	e := &view.Embed{Title: r.T("puzzle.title", st.Puzzle.ID, view.GameLabel(r.Locale(), st.Puzzle.Game, "", pos)), Description: head + "\n" + r.T("puzzle.next")}
	reply := view.Reply{Ephemeral: true, Embed: e, Shows: &view.Shown{Game: st.Puzzle.Game, Position: pos.Encode()}}
	png, err := view.RenderPNG(pos, m, st.Pos.Turn() == engine.Black, r.Locale(), nil)
	if err != nil {
		b.Log.Warn("render puzzle", "puzzle", st.Puzzle.ID, "err", err)
	} else if png != nil {
		name := "puzzle-" + st.Puzzle.ID + "-end.png"
		reply.Files = []view.File{{Name: name, ContentType: "image/png", Data: png, Description: view.PositionAlt(r.Locale(), st.Puzzle.Game, pos, st.Pos, m)}}
		e.Image = name
		reply.FallbackText = r.T("game.noimage")
	}
	return []view.Reply{reply}, nil
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

func puzzleHint(b *app.Bot, ctx context.Context, r *app.Req) ([]view.Reply, error) {
	st, err := b.CurrentPuzzle(ctx, r)
	if err != nil {
		return nil, err
	}
	if st.Active.Hinted {
		return nil, app.Refuse("refuse.puzzle.hinted")
	}
	m, err := st.Pos.ParseMove(st.Puzzle.Solution[2*st.Active.Step])
	if err != nil {
		return nil, app.Wrap("puzzle "+st.Puzzle.ID, err)
	}
	a := *st.Active
	a.Hinted = true
	if err := b.St.UpdateActivePuzzle(ctx, st.Active, &a); errors.Is(err, store.ErrPuzzleMoved) {
		return nil, app.Refuse("refuse.puzzle.hinted")
	} else if err != nil {
		return nil, err
	}
	steps := m.Steps()
	text := r.T("puzzle.hint.any")
	if len(steps) > 0 {
		text = r.T("puzzle.hint.square", steps[0])
		if namer, ok := st.Pos.(interface{ PieceName(string) string }); ok {
			if p := namer.PieceName(steps[0]); p != "" {
				text = r.T("puzzle.hint", p, steps[0])
			}
		}
	}
	return []view.Reply{{Ephemeral: true, Content: text + "\n" + r.T("puzzle.hint.cost")}}, nil
}

func puzzleStats(b *app.Bot, ctx context.Context, r *app.Req) ([]view.Reply, error) {
	prs, err := b.St.PuzzleRatings(ctx, r.User.ID)
	if err != nil {
		return nil, err
	}
	by := map[string]*store.PuzzleRating{}
	for _, p := range prs {
		by[p.Game] = p
	}
	var lines []string
	for _, g := range puzzle.Games {
		label := r.T("gamename." + g) // the game, not a start: puzzles have many
		p, ok := by[g]
		if !ok {
			lines = append(lines, r.T("puzzle.stats.none", label))
			continue
		}
		rt := rating.Rating{Rating: p.Rating, RD: p.RD, Volatility: p.Vol}
		lines = append(lines, r.T("puzzle.stats.line", label, rt.String(), strconv.Itoa(p.Streak), strconv.Itoa(p.BestStreak),
			strconv.Itoa(p.Solved), strconv.Itoa(p.Clean), strconv.Itoa(p.Failed)))
	}
	e := &view.Embed{Title: r.T("puzzle.stats.title", r.User.Name), Description: strings.Join(lines, "\n")}
	return []view.Reply{{Ephemeral: true, Embed: e}}, nil
}
