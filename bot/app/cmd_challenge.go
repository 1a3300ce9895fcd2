package app

import (
	"context"
	"errors"
	"strings"

	"github.com/tankbot/tankbot/bot/i18n"
	"github.com/tankbot/tankbot/store/clock"
)

var challengeCmd = command{
	name: "challenge",
	doc: "Challenge a member, or with no opponent anyone in the channel; `level` (or the bot as opponent) plays the computer at once. " +
		"`game`: one of the games (default: the first listed). `map`: a variant or a custom start position (validated; the engine's error is shown, translated). " +
		"`clock`: `30m`, `45m`, `10m+5s` (rapid), `1d`, `3d`, `7d` (correspondence, per move), `untimed`; any `Nm`, `Nm+Ks`, `Nh`, `Nd` works too; default 30 min per player up to 16 files, 45 min above. " +
		"`color`: `white`, `black`, `random` (default). `thread`: play in a thread of its own. `rated:false`: a casual game. Expires after 24 h (configurable).",
	opts: []optDef{
		{name: "opponent", typ: UserOption},
		{name: "game", typ: String, choices: gameChoices},
		{name: "map", typ: String, suggest: suggestMaps},
		{name: "clock", typ: String, suggest: suggestClocks},
		{name: "color", typ: String, choices: colorChoices},
		{name: "thread", typ: Bool},
		{name: "rated", typ: Bool},
		{name: "level", typ: Integer, bounds: between(minAILevel, maxAILevel)},
	},
	run: (*Bot).challenge,
	routes: []route{{prefix: "c", format: "c:<challenge>:<action>", doc: "Accept, Decline, Cancel on a challenge (`accept`, `decline`, `cancel`).",
		run: func(b *Bot, ctx context.Context, r *req) ([]Reply, error) {
			id, ok := parseCustomID(r.CustomID)
			if !ok {
				return nil, refuse("refuse.unknown")
			}
			return b.challengeAction(ctx, r, id.id, id.action)
		}}},
}

// challenge handles /challenge [opponent] game map clock color thread.
func (b *Bot) challenge(ctx context.Context, r *req) ([]Reply, error) {
	if err := mayChallenge(r); err != nil {
		return nil, err
	}
	opt := r.Options
	level, vsAI, err := b.wantsAI(r)
	if err != nil {
		return nil, err
	}
	var opp User
	if id := opt["opponent"]; id != "" && !vsAI {
		opp = r.Users[id]
		if opp.ID == "" {
			opp = User{ID: id, Name: id}
		}
		if opp.ID == r.User.ID {
			return nil, refuse("refuse.self")
		}
		if opp.Bot {
			return nil, refuse("refuse.botopp")
		}
	}
	rules, variant, start, tc, err := b.gameOptions(r)
	if err != nil {
		return nil, err
	}
	color := strings.ToLower(strings.TrimSpace(opt["color"]))
	if color == "" {
		color = "random"
	}
	if color != "white" && color != "black" && color != "random" {
		return nil, refuse("refuse.badcolor")
	}
	thread := b.cfg.ThreadPerGame
	if r.guild.Thread != nil {
		thread = *r.guild.Thread
	}
	if v, ok := opt["thread"]; ok {
		thread = v == "true"
	}
	rated := opt["rated"] != "false" // rated unless asked otherwise
	now := b.clk.Now()
	c := &challengeRec{
		Challenger: r.User, Opponent: opp, Game: rules.Name(), Variant: variant, Start: start,
		Clock: tc.String(), Color: color, Thread: thread, GuildID: r.GuildID, ChannelID: r.ChannelID,
		Status: chPending, Expires: now.Add(b.cfg.ChallengeExpiry), Rated: rated,
	}
	if vsAI {
		return b.challengeAI(ctx, r, c, b.aiUser(r, level), level)
	}
	pend, err := b.st.pendingChallenges(ctx, r.User.ID)
	if err != nil {
		return nil, wrap("pending challenges", err)
	}
	if err := b.underCap(r, pend); err != nil {
		return nil, err
	}
	if opp.ID != "" {
		for _, c := range pend {
			if c.Opponent.ID == opp.ID && c.Challenger.ID == r.User.ID || c.Challenger.ID == opp.ID && c.Opponent.ID == r.User.ID {
				return nil, refuse("refuse.duplicate", opp.Name)
			}
		}
	}
	return b.postChallenge(ctx, r, c, tc)
}

func (b *Bot) postChallenge(ctx context.Context, r *req, c *challengeRec, tc clock.Settings) ([]Reply, error) {
	c.Locale = r.pub
	id, err := b.st.createChallenge(ctx, c, effects{schedule: []event{{Kind: evExpire, Due: c.Expires}}})
	if errors.Is(err, errDuplicate) {
		return nil, refuse("refuse.duplicate", c.Opponent.Name)
	}
	if err != nil {
		return nil, wrap("create challenge", err)
	}
	c.ID = id
	// Public text in the server's language; the challenged user is pinged
	// by the mention in the content (an open challenge pings nobody).
	pub := r.public()
	what := labelOf(pub.loc, c.Game, c.Variant, c.Start)
	var text string
	if c.Opponent.ID == "" {
		text = pub.t("challenge.open", c.Challenger.Name, what, describeClock(pub.loc, tc))
	} else if loc, known := b.knownLocale(ctx, c.Opponent.ID); known && loc != pub.loc {
		// The challenged player reads another language: the server's
		// line names them, and the line that pings them is in theirs.
		text = pub.t("challenge.to", c.Challenger.Name, c.Opponent.Name, what, describeClock(pub.loc, tc)) + "\n" +
			i18n.T(loc, "challenge.to", c.Challenger.Name, mention(c.Opponent.ID), labelOf(loc, c.Game, c.Variant, c.Start), describeClock(loc, tc))
	} else {
		text = pub.t("challenge.to", c.Challenger.Name, mention(c.Opponent.ID), what, describeClock(pub.loc, tc))
	}
	if c.Color != "random" {
		text += "\n" + pub.t("challenge.colorpick", c.Challenger.Name, pub.t("color."+c.Color))
	}
	if !c.Rated {
		text += "\n" + pub.t("challenge.casual")
	}
	text += "\n" + pub.t("challenge.expires", discordTime(c.Expires))
	reply := Reply{
		Content: text,
		Components: [][]Component{{
			{Kind: Button, CustomID: challengeCustomID(id, "accept"), Label: pub.t("btn.accept"), Style: Success},
			{Kind: Button, CustomID: challengeCustomID(id, "decline"), Label: pub.t("btn.decline"), Style: Danger},
			{Kind: Button, CustomID: challengeCustomID(id, "cancel"), Label: pub.t("btn.cancel"), Style: Secondary},
		}},
	}
	if c.Opponent.ID != "" {
		reply.Mentions = []string{c.Opponent.ID}
	}
	// The transport records the message's id: the challenge's end edits it.
	reply.ChallengeID = id
	if c.ChannelID != r.ChannelID {
		// A rematch asked from elsewhere goes to the game's place, where
		// its message will be looked for.
		reply.ChannelID = c.ChannelID
	}
	return []Reply{reply}, nil
}

// challengeAction handles the Accept/Decline/Cancel buttons.
func (b *Bot) challengeAction(ctx context.Context, r *req, id int64, action string) ([]Reply, error) {
	c, err := b.st.challenge(ctx, id)
	if errors.Is(err, errNotFound) {
		return nil, refuse("refuse.nochallenge")
	}
	if err != nil {
		return nil, wrap("load challenge", err)
	}
	if c.GuildID != r.GuildID {
		// Another server's challenge does not exist here.
		return nil, refuse("refuse.nochallenge")
	}
	if c.Status == chExpired || c.Status == chPending && !b.clk.Now().Before(c.Expires) {
		return b.expiredAnswer(ctx, r, c)
	}
	if c.Status != chPending {
		return nil, refuse("refuse.chaltaken")
	}
	me := r.User.ID
	switch action {
	case "cancel":
		if me != c.Challenger.ID {
			return nil, refuse("refuse.onlychallenger")
		}
		return b.closeChallenge(ctx, r, c, chCancelled, "challenge.cancelled", c.Opponent)
	case "decline":
		if me == c.Challenger.ID {
			return b.closeChallenge(ctx, r, c, chCancelled, "challenge.cancelled", c.Opponent)
		}
		if c.Opponent.ID == "" || me != c.Opponent.ID {
			// An open challenge is declined by not taking it.
			return nil, refuse("refuse.notyours")
		}
		return b.closeChallenge(ctx, r, c, chDeclined, "challenge.declined", c.Challenger)
	case "accept":
		if me == c.Challenger.ID {
			return nil, refuse("refuse.ownchallenge")
		}
		if c.Opponent.ID != "" && me != c.Opponent.ID {
			return nil, refuse("refuse.notyours")
		}
		if r.User.Bot {
			return nil, refuse("refuse.botopp")
		}
		return b.startGame(ctx, r, c, r.User)
	}
	return nil, refuse("refuse.unknown")
}

// expiredAnswer answers a use of an expired challenge. One still pending
// (its expiry event has not run yet) expires now, in this transaction. A
// click on its buttons updates its message in place (buttons gone, "expired");
// from elsewhere (/accept) the user is told and the message is edited out
// of band.
func (b *Bot) expiredAnswer(ctx context.Context, r *req, c *challengeRec) ([]Reply, error) {
	own := r.Kind == KindComponent
	if c.Status == chPending {
		eff := effects{cancel: []cancelSpec{{kinds: []string{evExpire}}}}
		if !own {
			// What the expiry event would have queued.
			eff.posts = []outPost{b.expiryNotice(ctx, c)}
		}
		ok, err := b.st.setChallengeStatus(ctx, c.ID, chExpired, eff)
		if err != nil {
			return nil, wrap("expire challenge", err)
		}
		if !ok {
			// Ended meanwhile: by its expiry event, or answered just in time.
			now, err := b.st.challenge(ctx, c.ID)
			if err != nil {
				return nil, wrap("load challenge", err)
			}
			if now.Status != chExpired {
				return nil, refuse("refuse.chaltaken")
			}
		}
	}
	if own {
		return []Reply{{Update: true, Content: r.public().t("challenge.expired", c.Challenger.Name)}}, nil
	}
	return nil, refuse("refuse.chalexpired")
}

// closeChallenge ends a pending challenge: its message says so (buttons
// gone) and the other side, if any, is pinged by a new message.
func (b *Bot) closeChallenge(ctx context.Context, r *req, c *challengeRec, status, key string, other User) ([]Reply, error) {
	own := r.Kind == KindComponent
	content := r.public().t(key, r.User.Name)
	eff := effects{cancel: []cancelSpec{{kinds: []string{evExpire}}}}
	if !own {
		eff.posts = challengeEdit(c, content)
	}
	ok, err := b.st.setChallengeStatus(ctx, c.ID, status, eff)
	if err != nil {
		return nil, wrap("close challenge", err)
	}
	if !ok {
		return nil, refuse("refuse.chaltaken")
	}
	var out []Reply
	if own || len(eff.posts) == 0 {
		out = append(out, Reply{Update: own, Content: content})
	}
	if other.ID != "" {
		content, ids := b.pings(ctx, []User{other}, func(loc, who string) string {
			return i18n.T(loc, key+".ping", who, r.User.Name)
		})
		out = append(out, Reply{Content: content, Mentions: ids})
	}
	return out, nil
}
