package bot

import (
	"context"
)

// The move command's buttons and forms beyond the picker: the confirmation
// of a move that stands for many, and the typed-move form.

func (b *Bot) moveAsk(ctx context.Context, r *req, g *gameRec, id customID) ([]Reply, error) {
	// A move that stands for many (finish my draft) cannot be taken
	// back: ask first.
	_, pos, err := b.mustMove(r, g)
	if err != nil {
		return nil, err
	}
	ask := r.t("confirm.move", id.arg)
	if m, err := pos.ParseMove(id.arg); err == nil {
		if w := moveWords(r.loc, pos, m); w != "" {
			ask = r.t("confirm.move.means", id.arg, w)
		}
	}
	return []Reply{{
		Ephemeral: true,
		Content:   ask,
		Components: [][]Component{{
			{Kind: Button, CustomID: gameID(g.ID, g.Seq, "moveok", id.arg), Label: r.t("btn.confirm"), Style: Success},
			{Kind: Button, CustomID: gameID(g.ID, g.Seq, "keep"), Label: r.t("btn.cancel"), Style: Secondary},
		}},
	}}, nil
}

func (b *Bot) moveOK(ctx context.Context, r *req, g *gameRec, id customID) ([]Reply, error) {
	return confirmed(r, g, r.t("played.you", id.arg))(b.play(ctx, r, g, id.seq, id.arg))
}

// moveChosen plays a move chosen in a menu (its value) or carried by the id.
func (b *Bot) moveChosen(ctx context.Context, r *req, g *gameRec, id customID) ([]Reply, error) {
	text := id.arg
	if len(r.Values) > 0 {
		text = r.Values[0]
	}
	return b.play(ctx, r, g, id.seq, text)
}

// typeMove opens the typed-move form, and plays what it brings back.
func (b *Bot) typeMove(ctx context.Context, r *req, g *gameRec, id customID) ([]Reply, error) {
	if _, _, err := b.mustMove(r, g); err != nil {
		return nil, err
	}
	if r.Kind == KindModal {
		if len(r.Values) == 0 {
			return nil, refuse("refuse.nomove")
		}
		return b.play(ctx, r, g, id.seq, r.Values[0])
	}
	return []Reply{{Modal: &Modal{
		CustomID: gameID(g.ID, g.Seq, "type"),
		Title:    r.t("modal.title"),
		Inputs:   []Input{{CustomID: "move", Label: r.t("modal.label"), Placeholder: MoveExample(g.Game), Required: true}},
	}}}, nil
}

// flipView is a personal view of the board the other way up from the
// public one, whoever clicks.
func (b *Bot) flipView(ctx context.Context, r *req, g *gameRec, _ customID) ([]Reply, error) {
	pos, last, err := b.replayLast(ctx, g)
	if err != nil {
		return nil, err
	}
	reply, err := b.boardReply(ctx, r, g, pos, last, "", true)
	if err != nil {
		return nil, err
	}
	// A personal view: no buttons (only the game's board has them).
	reply.Ephemeral, reply.Components = true, nil
	return []Reply{reply}, nil
}

// confirmed wraps the public replies of an action confirmed in an
// ephemeral message: that message is edited to say what was done (buttons
// gone) and the public ones go to the game's place as new messages.
func confirmed(r *req, g *gameRec, done string) func([]Reply, error) ([]Reply, error) {
	return func(out []Reply, err error) ([]Reply, error) {
		if err != nil {
			return nil, err
		}
		res := []Reply{{Ephemeral: true, Update: true, Content: done}}
		for _, o := range out {
			if !o.Ephemeral && o.ChannelID == "" {
				o.ChannelID, o.Update = g.ChannelID, false
			}
			res = append(res, o)
		}
		return res, nil
	}
}

// MoveExample is a move or two in the game's notation, for the move form and
// the console's banner; unknown games get Tank Chess's.
func MoveExample(game string) string {
	if ex, ok := moveExamples[game]; ok {
		return ex
	}
	return moveExamples["tank"]
}

var moveExamples = map[string]string{"tank": "e3 > e5n", "camelot": "F5-F6, E8xE10", "gungi": "Pe3-e4, P*e5"}

// rematch offers the same game with colours swapped, as a challenge to the
// other player.
func (b *Bot) rematch(ctx context.Context, r *req, g *gameRec) ([]Reply, error) {
	side, ok := g.player(r.User.ID)
	if !ok {
		return nil, refuse("refuse.notplayer", g.num())
	}
	if g.Status == gmActive {
		return nil, refuse("rematch.notover")
	}
	opp := g.user(1 - side)
	if g.AILevel > 0 {
		// Against the computer: a new game at once, same level.
		c := &challengeRec{
			Challenger: r.User, Game: g.Game, Variant: g.Variant, Start: g.Start, Clock: g.Clock,
			Color: []string{"black", "white"}[side], GuildID: g.GuildID, ChannelID: g.ChannelID,
			Status: chPending, Expires: b.clk.Now().Add(b.cfg.ChallengeExpiry), Rematch: g.ID,
		}
		return b.challengeAI(ctx, r, c, opp, g.AILevel)
	}
	pend, err := b.st.pendingChallenges(ctx, r.User.ID)
	if err != nil {
		return nil, wrap("pending challenges", err)
	}
	if err := b.underCap(r, pend); err != nil {
		return nil, err
	}
	for _, c := range pend {
		if c.Challenger.ID == opp.ID || c.Opponent.ID == opp.ID {
			return nil, refuse("refuse.duplicate", opp.Name)
		}
	}
	color := "black" // the challenger played white: swap
	if side == 1 {
		color = "white"
	}
	c := &challengeRec{
		Challenger: r.User, Opponent: opp, Game: g.Game, Variant: g.Variant, Start: g.Start,
		Clock: g.Clock, Color: color, GuildID: g.GuildID, ChannelID: g.ChannelID,
		Status: chPending, Expires: b.clk.Now().Add(b.cfg.ChallengeExpiry), Rematch: g.ID, Rated: g.Rated,
	}
	tc, _ := parseClock(g.Clock)
	return b.postChallenge(ctx, r, c, tc)
}

var rematchCmd = command{
	name: "rematch",
	doc:  "After a game: the same game as a new challenge, colours swapped (against the computer: a new game at once, same level).",
	opts: []optDef{gameOptFinished},
	run: func(b *Bot, ctx context.Context, r *req) ([]Reply, error) {
		g, err := b.findFinished(ctx, r)
		if err != nil {
			return nil, err
		}
		return b.rematch(ctx, r, g)
	},
	actions: []action{{name: "rematch", anyone: true, doc: "Rematch, on a finished game's board.",
		run: func(b *Bot, ctx context.Context, r *req, g *gameRec, _ customID) ([]Reply, error) {
			return b.rematch(ctx, r, g)
		}}},
}

// findFinished is findGame for /rematch: the named game, or the caller's
// latest game in this channel (which may be over).
func (b *Bot) findFinished(ctx context.Context, r *req) (*gameRec, error) {
	if r.Options["game"] != "" {
		return b.findGame(ctx, r)
	}
	g, err := b.st.lastGame(ctx, r.User.ID, r.ChannelID)
	if err != nil {
		return nil, refuse("refuse.nogame")
	}
	return g, nil
}
