package app

import (
	"context"
	"math"
	"strconv"
	"strings"
)

// /profile: a player's ratings and recent games here.

var profileCmd = command{
	name: "profile",
	doc:  "A player's ratings, results and recent games here (yours without `user`).",
	opts: []optDef{{name: "user", typ: UserOption}},
	run:  (*Bot).profileCommand,
}

// profileRecent is how many finished games a profile lists.
const profileRecent = 5

func (b *Bot) profileCommand(ctx context.Context, r *req) ([]Reply, error) {
	st := b.st
	who := r.User.ID
	if u := strings.TrimSpace(r.Options["user"]); u != "" {
		who = u
	}
	rs, err := st.PlayerRatings(ctx, r.ladder(), who)
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
