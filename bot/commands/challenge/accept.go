package challenge

import (
	"context"
	"strconv"
	"strings"

	"github.com/tankbot/tankbot/bot/app"
	"github.com/tankbot/tankbot/bot/view"
)

// /accept: take a challenge waiting here by command rather than by its button.

var Accept = app.CommandDef{
	Name: "accept",
	Doc:  "Accept the only challenge waiting for you here (or the one named).",
	Opts: []app.OptDef{{Name: "challenge", Typ: app.String, Suggest: app.SuggestChallenges}},
	Run:  acceptCommand,
}

// acceptCommand handles /accept [challenge]: the only pending challenge for
// the caller, or the one named.
func acceptCommand(b *app.Bot, ctx context.Context, r *app.Req) ([]view.Reply, error) {
	if s := strings.TrimPrefix(strings.TrimSpace(r.Options["challenge"]), "#"); s != "" {
		id, err := strconv.ParseInt(s, 10, 64)
		if err != nil {
			return nil, app.Refuse("refuse.nochallenge")
		}
		return challengeAction(b, ctx, r, id, "accept")
	}
	pend, err := b.St.PendingChallenges(ctx, r.User.ID)
	if err != nil {
		return nil, app.Wrap("pending challenges", err)
	}
	var mine []*app.ChallengeRec
	for _, c := range pend {
		if c.GuildID == r.GuildID && c.Challenger.ID != r.User.ID && (c.Opponent.ID == r.User.ID || c.Opponent.ID == "" && c.ChannelID == r.ChannelID) {
			mine = append(mine, c)
		}
	}
	switch len(mine) {
	case 0:
		return nil, app.Refuse("refuse.nopending")
	case 1:
		return challengeAction(b, ctx, r, mine[0].ID, "accept")
	}
	return nil, app.Refuse("refuse.pendingchoose")
}
