package bot

import (
	"context"
	"errors"
	"fmt"
	"math"
	"strconv"
	"strings"
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

var leaderboardCmd = command{
	name: "leaderboard",
	doc:  "This server's ratings for a game, a page at a time; provisional ratings (few games) last.",
	opts: []optDef{{name: "game", typ: String}},
	run:  (*Bot).leaderboardCommand,
	routes: []route{{prefix: lbPrefix, format: "lb:<game>:<offset>", doc: "◀ ▶ of the leaderboard: the message is edited in place.",
		run: (*Bot).leaderboardPage}},
}

var profileCmd = command{
	name: "profile",
	doc:  "A player's ratings, results and recent games here (yours without `user`).",
	opts: []optDef{{name: "user", typ: UserOption}},
	run:  (*Bot).profileCommand,
}

// ratingsRepo is what ratings and the archive need beyond repo. The
// SQLite-backed storeRepo has it; a repo without it answers
// "refuse.ratings-unavailable".
type ratingsRepo interface {
	store() *store.Store
}

func (s *storeRepo) store() *store.Store { return s.st }

func (b *Bot) ratingsStore() (*store.Store, error) {
	if rr, ok := b.st.(ratingsRepo); ok {
		return rr.store(), nil
	}
	return nil, refuse("refuse.ratings-unavailable")
}

// lbPageSize rows per leaderboard page: 15 lines of ~60 characters stay
// far inside a message's 2,000.
const lbPageSize = 15

// lbPrefix starts the custom ids of leaderboard page buttons:
// "lb:<game>:<offset>".
const lbPrefix = "lb"

func (b *Bot) leaderboardCommand(ctx context.Context, r *req) ([]Reply, error) {
	kind := strings.TrimSpace(r.Options["game"])
	if kind == "" {
		kind = gameNames()[0]
	}
	rules, ok := lookupGame(kind)
	if !ok {
		return nil, refuse("refuse.unknowngame", kind, strings.Join(gameNames(), ", "))
	}
	reply, err := b.leaderboard(ctx, r, rules.Name(), 0)
	if err != nil {
		return nil, err
	}
	return []Reply{reply}, nil
}

// leaderboardPage answers a page button by editing the message in place.
func (b *Bot) leaderboardPage(ctx context.Context, r *req) ([]Reply, error) {
	parts := strings.Split(r.CustomID, ":")
	if len(parts) != 3 {
		return nil, refuse("refuse.unknown")
	}
	rules, ok := lookupGame(parts[1])
	off, err := strconv.Atoi(parts[2])
	if !ok || err != nil || off < 0 {
		return nil, refuse("refuse.unknown")
	}
	reply, err := b.leaderboard(ctx, r, rules.Name(), off)
	if err != nil {
		return nil, err
	}
	reply.Update = true
	return []Reply{reply}, nil
}

func (b *Bot) leaderboard(ctx context.Context, r *req, kind string, off int) (Reply, error) {
	st, err := b.ratingsStore()
	if err != nil {
		return Reply{}, err
	}
	page, total, err := st.Leaderboard(ctx, r.GuildID, kind, rating.ProvisionalRD, off, lbPageSize)
	if err != nil {
		return Reply{}, wrap("leaderboard", err)
	}
	title := r.t("ratings.leaderboard.title", r.t("gamename."+kind))
	if total == 0 {
		return Reply{Ephemeral: true, Content: title + "\n" + r.t("ratings.leaderboard.empty")}, nil
	}
	if off >= total {
		off = (total - 1) / lbPageSize * lbPageSize
		if page, _, err = st.Leaderboard(ctx, r.GuildID, kind, rating.ProvisionalRD, off, lbPageSize); err != nil {
			return Reply{}, wrap("leaderboard", err)
		}
	}
	lines := []string{"**" + title + "**"}
	shownProvisional := false
	for i, p := range page {
		g := glickoOf(p.Glicko)
		if g.Provisional() && !shownProvisional {
			lines = append(lines, r.t("ratings.leaderboard.provisional"))
			shownProvisional = true
		}
		lines = append(lines, r.t("ratings.leaderboard.line", strconv.Itoa(off+i+1), "<@"+p.Player+">", g.String(), strconv.Itoa(p.Games)))
	}
	pages := (total + lbPageSize - 1) / lbPageSize
	lines = append(lines, r.t("ratings.leaderboard.page", strconv.Itoa(off/lbPageSize+1), strconv.Itoa(pages)))
	reply := Reply{Ephemeral: true, Content: strings.Join(lines, "\n")}
	if pages > 1 {
		reply.Components = [][]Component{{
			{Kind: Button, CustomID: lbID(kind, max(off-lbPageSize, 0)), Label: r.t("ratings.leaderboard.prev"), Style: Secondary, Disabled: off == 0},
			{Kind: Button, CustomID: lbID(kind, off+lbPageSize), Label: r.t("ratings.leaderboard.next"), Style: Secondary, Disabled: off+lbPageSize >= total},
		}}
	}
	return reply, nil
}

func lbID(kind string, off int) string { return lbPrefix + ":" + kind + ":" + strconv.Itoa(off) }

// profileRecent is how many finished games a profile lists.
const profileRecent = 5

func (b *Bot) profileCommand(ctx context.Context, r *req) ([]Reply, error) {
	st, err := b.ratingsStore()
	if err != nil {
		return nil, err
	}
	who := r.User.ID
	if u := strings.TrimSpace(r.Options["user"]); u != "" {
		who = u
	}
	rs, err := st.PlayerRatings(ctx, r.GuildID, who)
	if err != nil {
		return nil, wrap("profile", err)
	}
	recent, err := st.FinishedGames(ctx, r.GuildID, who, 0, profileRecent)
	if err != nil {
		return nil, wrap("profile", err)
	}
	lines := []string{"**" + r.t("ratings.profile.title", "<@"+who+">") + "**"}
	if len(rs) == 0 {
		lines = append(lines, r.t("ratings.profile.unrated"))
	}
	for _, p := range rs {
		lines = append(lines, r.t("ratings.profile.line", r.t("gamename."+p.Kind), glickoOf(p.Glicko).String(),
			strconv.Itoa(int(math.Round(p.RD))), strconv.Itoa(p.Wins), strconv.Itoa(p.Draws), strconv.Itoa(p.Losses), strconv.Itoa(p.BestStreak)))
	}
	if len(recent) > 0 {
		lines = append(lines, "", "**"+r.t("ratings.profile.recent")+"**")
	}
	for _, a := range recent {
		side := 0
		if a.Players[1] == who {
			side = 1
		}
		line := r.t("ratings.profile.game", strconv.Itoa(a.Number), r.t("gamename."+a.Kind), "<@"+a.Players[1-side]+">",
			r.t(outcomeKey(a.Result, side)), r.t("reason."+a.Reason))
		if cs, err := st.RatingChanges(ctx, a.ID); err == nil && len(cs) == 2 {
			line += " · " + signed(cs[side].After.Rating-beforeOf(cs[side]).Rating)
		} else if !a.Rated {
			line += " · " + r.t("ratings.casual")
		}
		lines = append(lines, line)
	}
	if len(recent) > 0 {
		lines = append(lines, r.t("ratings.profile.records"))
	}
	return []Reply{{Ephemeral: true, Content: strings.Join(lines, "\n")}}, nil
}

// outcomeKey is the catalog key of a stored result seen from side.
func outcomeKey(result string, side int) string {
	switch {
	case result == "1/2-1/2":
		return "ratings.drew"
	case result == "1-0" && side == 0, result == "0-1" && side == 1:
		return "ratings.won"
	case result == "1-0", result == "0-1":
		return "ratings.lost"
	}
	return "ratings.noresult"
}

func glickoOf(g store.Glicko) rating.Rating {
	return rating.Rating{Rating: g.Rating, RD: g.RD, Volatility: g.Vol}
}

// beforeOf is a change's rating before the game: a player's first rated
// game starts from rating.New().
func beforeOf(c store.RatingChange) rating.Rating {
	if c.Before.RD == 0 {
		return rating.New()
	}
	return rating.Rating{Rating: c.Before.Rating, RD: c.Before.RD}
}

// signed rounds a rating difference: "+16", "−4", "±0".
func signed(d float64) string {
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
	st, err := b.ratingsStore()
	if err != nil {
		return [2]store.RatingChange{}, err
	}
	return st.ApplyRatedResult(ctx, gameID, glickoRule)
}

// glickoRule is the store.RateFunc of tankbot's ratings.
func glickoRule(g *store.Game, before [2]*store.PlayerRating) ([2]store.Glicko, error) {
	var cur [2]rating.Rating
	var idle [2]time.Duration
	for side, p := range before {
		cur[side] = rating.New()
		if p != nil {
			cur[side] = glickoOf(p.Glicko)
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
		before, after := beforeOf(c), glickoOf(c.After)
		out = append(out, i18n.T(loc, "ratings.change", names[side], before.String(), after.String(), signed(after.Rating-before.Rating)))
	}
	return out
}

// ratingsForGame rates g if it can be (ignoring casual games) and returns
// the lines to show; nil when the game does not count.
func (b *Bot) ratingsForGame(ctx context.Context, loc string, g *gameRec) ([]string, error) {
	cs, err := b.rateGame(ctx, g.ID)
	if errors.Is(err, store.ErrNotRated) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	return ratingLines(loc, cs, [2]string{g.White.Name, g.Black.Name}), nil
}
