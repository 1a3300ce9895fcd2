package app

import (
	"context"
	"strconv"
	"strings"
)

// /accept: take a challenge waiting here by command rather than by its button.

var acceptCmd = command{
	name: "accept",
	doc:  "Accept the only challenge waiting for you here (or the one named).",
	opts: []optDef{{name: "challenge", typ: String, suggest: suggestChallenges}},
	run:  (*Bot).acceptCommand,
}

// acceptCommand handles /accept [challenge]: the only pending challenge for
// the caller, or the one named.
func (b *Bot) acceptCommand(ctx context.Context, r *req) ([]Reply, error) {
	if s := strings.TrimPrefix(strings.TrimSpace(r.Options["challenge"]), "#"); s != "" {
		id, err := strconv.ParseInt(s, 10, 64)
		if err != nil {
			return nil, refuse("refuse.nochallenge")
		}
		return b.challengeAction(ctx, r, id, "accept")
	}
	pend, err := b.st.pendingChallenges(ctx, r.User.ID)
	if err != nil {
		return nil, wrap("pending challenges", err)
	}
	var mine []*challengeRec
	for _, c := range pend {
		if c.GuildID == r.GuildID && c.Challenger.ID != r.User.ID && (c.Opponent.ID == r.User.ID || c.Opponent.ID == "" && c.ChannelID == r.ChannelID) {
			mine = append(mine, c)
		}
	}
	switch len(mine) {
	case 0:
		return nil, refuse("refuse.nopending")
	case 1:
		return b.challengeAction(ctx, r, mine[0].ID, "accept")
	}
	return nil, refuse("refuse.pendingchoose")
}
