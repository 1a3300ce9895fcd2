package app

import (
	"context"
	"errors"
	"fmt"
	"math"
	"strconv"
	"time"

	"github.com/tankbot/tankbot/bot/i18n"
	"github.com/tankbot/tankbot/bot/rating"
	"github.com/tankbot/tankbot/engine"
	recfile "github.com/tankbot/tankbot/engine/record"
	"github.com/tankbot/tankbot/store"
)

// Ratings, /leaderboard and /profile. Ratings live in the store per
// server and per game; the math is bot/rating's Glicko-2. See
// docs/ratings.md.

func GlickoOf(g store.Glicko) rating.Rating {
	return rating.Rating{Rating: g.Rating, RD: g.RD, Volatility: g.Vol}
}

// BeforeOf is a change's rating before the game: a player's first rated
// game starts from rating.New().
func BeforeOf(c store.RatingChange) rating.Rating {
	if c.Before.RD == 0 {
		return rating.New()
	}
	return rating.Rating{Rating: c.Before.Rating, RD: c.Before.RD}
}

// Signed rounds a rating difference: "+16", "−4", "±0".
func Signed(d float64) string {
	n := int(math.Round(d))
	switch {
	case n > 0:
		return "+" + strconv.Itoa(n)
	case n < 0:
		return "−" + strconv.Itoa(-n)
	}
	return "±0"
}

// rateGame counts a finished game for both players' ratings (Glicko-2,
// each game its own rating period, after each player's idle decay) and
// returns the two changes. It is idempotent: a game already counted
// returns its first changes. store.ErrNotRated for casual, aborted or
// unfinished games.
//
// The game-over path calls it once the result is saved, then shows
// ratingLines.
func (b *Bot) rateGame(ctx context.Context, gameID int64) ([2]store.RatingChange, error) {
	return b.St.ApplyRatedResult(ctx, gameID, glickoRule)
}

// glickoRule is the store.RateFunc of tankbot's ratings.
func glickoRule(g *store.Game, before [2]*store.PlayerRating) ([2]store.Glicko, error) {
	var cur [2]rating.Rating
	var idle [2]time.Duration
	for side, p := range before {
		cur[side] = rating.New()
		if p != nil {
			cur[side] = GlickoOf(p.Glicko)
			if !p.Last.IsZero() && g.Updated.After(p.Last) {
				idle[side] = g.Updated.Sub(p.Last)
			}
		}
	}
	res, _ := recfile.ParseResult(g.Result)
	score, ok := map[engine.Result]rating.Score{engine.WhiteWins: rating.Win, engine.BlackWins: rating.Loss, engine.Draw: rating.Draw}[res]
	if !ok {
		return [2]store.Glicko{}, fmt.Errorf("rate game %d: result %q", g.ID, g.Result)
	}
	a, c := rating.Game(cur[0], cur[1], idle[0], idle[1], score)
	return [2]store.Glicko{{Rating: a.Rating, RD: a.RD, Vol: a.Volatility}, {Rating: c.Rating, RD: c.RD, Vol: c.Volatility}}, nil
}

// ratingLines are the game-over message's rating lines, one per player:
// "alice 1523 → 1539 (+16)". names are the players' display names by side.
func ratingLines(loc string, changes [2]store.RatingChange, names [2]string) []string {
	var out []string
	for side, c := range changes {
		before, after := BeforeOf(c), GlickoOf(c.After)
		out = append(out, i18n.T(loc, "ratings.change", names[side], before.String(), after.String(), Signed(after.Rating-before.Rating)))
	}
	return out
}

// ratingsForGame rates g if it can be (ignoring casual games) and returns
// the lines to show; nil when the game does not count.
func (b *Bot) ratingsForGame(ctx context.Context, loc string, g *Game) ([]string, error) {
	cs, err := b.rateGame(ctx, g.ID)
	if errors.Is(err, store.ErrNotRated) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	return ratingLines(loc, cs, [2]string{g.White.Name, g.Black.Name}), nil
}
