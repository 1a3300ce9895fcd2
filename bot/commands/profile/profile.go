// Package profile holds /profile: a player's ratings and recent games here.
package profile

import (
	"context"
	"math"
	"strconv"
	"strings"

	"github.com/tankbot/tankbot/bot/app"
	"github.com/tankbot/tankbot/bot/view"
)

var Command = app.CommandDef{
	Name: "profile",
	Doc:  "A player's ratings, results and recent games here (yours without `user`).",
	Opts: []app.OptDef{{Name: "user", Typ: app.UserOption}},
	Run:  profileCommand,
}

// profileRecent is how many finished games a profile lists.
const profileRecent = 5

func profileCommand(b *app.Bot, ctx context.Context, r *app.Req) ([]view.Reply, error) {
	st := b.St
	who := r.User.ID
	if u := strings.TrimSpace(r.Options["user"]); u != "" {
		who = u
	}
	rs, err := st.PlayerRatings(ctx, r.Ladder(), who)
	if err != nil {
		return nil, app.Wrap("profile", err)
	}
	recent, err := st.FinishedGames(ctx, r.GuildID, who, 0, profileRecent)
	if err != nil {
		return nil, app.Wrap("profile", err)
	}
	lines := []string{"**" + r.T("ratings.profile.title", "<@"+who+">") + "**"}
	if len(rs) == 0 {
		lines = append(lines, r.T("ratings.profile.unrated"))
	}
	for _, p := range rs {
		lines = append(lines, r.T("ratings.profile.line", r.T("gamename."+p.Kind), app.GlickoOf(p.Glicko).String(),
			strconv.Itoa(int(math.Round(p.RD))), strconv.Itoa(p.Wins), strconv.Itoa(p.Draws), strconv.Itoa(p.Losses), strconv.Itoa(p.BestStreak)))
	}
	if len(recent) > 0 {
		lines = append(lines, "", "**"+r.T("ratings.profile.recent")+"**")
	}
	for _, a := range recent {
		side := 0
		if a.Players[1] == who {
			side = 1
		}
		line := r.T("ratings.profile.game", strconv.Itoa(a.Number), r.T("gamename."+a.Kind), "<@"+a.Players[1-side]+">",
			r.T(outcomeKey(a.Result, side)), r.T("reason."+a.Reason))
		if cs, err := st.RatingChanges(ctx, a.ID); err == nil && len(cs) == 2 {
			line += " · " + app.Signed(cs[side].After.Rating-app.BeforeOf(cs[side]).Rating)
		} else if !a.Rated {
			line += " · " + r.T("ratings.casual")
		}
		lines = append(lines, line)
	}
	if len(recent) > 0 {
		lines = append(lines, r.T("ratings.profile.records"))
	}
	return []view.Reply{{Ephemeral: true, Content: strings.Join(lines, "\n")}}, nil
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
