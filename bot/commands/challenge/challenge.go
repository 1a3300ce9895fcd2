// Package challenge holds /challenge, /accept and /rematch, which share
// the challenge message and its Accept, Decline and Cancel buttons.
package challenge

import (
	"context"
	"errors"
	"strings"

	"github.com/tankbot/tankbot/bot/app"
	"github.com/tankbot/tankbot/bot/view"

	"github.com/tankbot/tankbot/bot/i18n"
	"github.com/tankbot/tankbot/store/clock"
)

var Challenge = app.CommandDef{
	Name: "challenge",
	Doc: "Challenge a member, or with no opponent anyone in the channel; `level` (or the bot as opponent) plays the computer at once. " +
		"`game`: one of the games (default: the first listed). `map`: a variant or a custom start position (validated; the engine's error is shown, translated). " +
		"`clock`: `30m`, `45m`, `10m+5s` (rapid), `1d`, `3d`, `7d` (correspondence, per move), `untimed`; any `Nm`, `Nm+Ks`, `Nh`, `Nd` works too; default 30 min per player up to 16 files, 45 min above. " +
		"`color`: `white`, `black`, `random` (default). `thread`: play in a thread of its own. `rated:false`: a casual game. Expires after 24 h (configurable).",
	Opts: []app.OptDef{
		{Name: "opponent", Typ: app.UserOption},
		{Name: "game", Typ: app.String, Choices: app.GameChoices},
		{Name: "map", Typ: app.String, Suggest: app.SuggestMaps},
		{Name: "clock", Typ: app.String, Suggest: app.SuggestClocks},
		{Name: "color", Typ: app.String, Choices: app.ColorChoices},
		{Name: "thread", Typ: app.Bool},
		{Name: "rated", Typ: app.Bool},
		{Name: "level", Typ: app.Integer, Bounds: app.Between(app.MinAILevel, app.MaxAILevel)},
	},
	Run: challenge,
	Routes: []app.RouteDef{{Prefix: "c", Format: "c:<challenge>:<action>", Doc: "Accept, Decline, Cancel on a challenge (`accept`, `decline`, `cancel`).",
		Run: func(b *app.Bot, ctx context.Context, r *app.Req) ([]view.Reply, error) {
			id, ok := view.ParseCustomID(r.CustomID)
			if !ok {
				return nil, app.Refuse("refuse.unknown")
			}
			return challengeAction(b, ctx, r, id.ID, id.Action)
		}}},
}

// challenge handles /challenge [opponent] game map clock color thread.
func challenge(b *app.Bot, ctx context.Context, r *app.Req) ([]view.Reply, error) {
	if err := app.MayChallenge(r); err != nil {
		return nil, err
	}
	opt := r.Options
	level, vsAI, err := b.WantsAI(r)
	if err != nil {
		return nil, err
	}
	var opp app.User
	if id := opt["opponent"]; id != "" && !vsAI {
		opp = r.Users[id]
		if opp.ID == "" {
			opp = app.User{ID: id, Name: id}
		}
		if opp.ID == r.User.ID {
			return nil, app.Refuse("refuse.self")
		}
		if opp.Bot {
			return nil, app.Refuse("refuse.botopp")
		}
	}
	rules, variant, start, tc, err := b.GameOptions(r)
	if err != nil {
		return nil, err
	}
	color := strings.ToLower(strings.TrimSpace(opt["color"]))
	if color == "" {
		color = "random"
	}
	if color != "white" && color != "black" && color != "random" {
		return nil, app.Refuse("refuse.badcolor")
	}
	thread := b.Cfg.ThreadPerGame
	if r.Server().Thread != nil {
		thread = *r.Server().Thread
	}
	if v, ok := opt["thread"]; ok {
		thread = v == "true"
	}
	if !r.InServerWithBot() {
		thread = false // only a member of a server opens threads in it
	}
	rated := opt["rated"] != "false" // rated unless asked otherwise
	now := b.Clk.Now()
	c := &app.ChallengeRec{
		Challenger: r.User, Opponent: opp, Game: rules.Name(), Variant: variant, Start: start,
		Clock: tc.String(), Color: color, Thread: thread, GuildID: r.GuildID, ChannelID: r.ChannelID,
		Status: app.ChPending, Expires: now.Add(b.Cfg.ChallengeExpiry), Rated: rated, NoPosts: r.BotAbsent,
	}
	if vsAI {
		return b.ChallengeAI(ctx, r, c, b.AiUser(r, level), level)
	}
	pend, err := b.St.PendingChallenges(ctx, r.User.ID)
	if err != nil {
		return nil, app.Wrap("pending challenges", err)
	}
	if err := b.UnderCap(r, pend); err != nil {
		return nil, err
	}
	if opp.ID != "" {
		for _, c := range pend {
			if c.Opponent.ID == opp.ID && c.Challenger.ID == r.User.ID || c.Challenger.ID == opp.ID && c.Opponent.ID == r.User.ID {
				return nil, app.Refuse("refuse.duplicate", opp.Name)
			}
		}
	}
	return postChallenge(b, ctx, r, c, tc)
}

func postChallenge(b *app.Bot, ctx context.Context, r *app.Req, c *app.ChallengeRec, tc clock.Settings) ([]view.Reply, error) {
	c.Locale = r.PubLoc()
	id, err := b.St.CreateChallenge(ctx, c, app.Effects{Schedule: []app.Event{{Kind: app.EvExpire, Due: c.Expires}}})
	if errors.Is(err, app.ErrDuplicate) {
		return nil, app.Refuse("refuse.duplicate", c.Opponent.Name)
	}
	if err != nil {
		return nil, app.Wrap("create challenge", err)
	}
	c.ID = id
	// Public text in the server's language; the challenged user is pinged
	// by the mention in the content (an open challenge pings nobody).
	pub := r.Public()
	what := view.LabelOf(pub.Locale(), c.Game, c.Variant, c.Start)
	var text string
	if c.Opponent.ID == "" {
		text = pub.T("challenge.open", c.Challenger.Name, what, app.DescribeClock(pub.Locale(), tc))
	} else if loc, known := b.KnownLocale(ctx, c.Opponent.ID); known && loc != pub.Locale() {
		// The challenged player reads another language: the server's
		// line names them, and the line that pings them is in theirs.
		text = pub.T("challenge.to", c.Challenger.Name, c.Opponent.Name, what, app.DescribeClock(pub.Locale(), tc)) + "\n" +
			i18n.T(loc, "challenge.to", c.Challenger.Name, view.Mention(c.Opponent.ID), view.LabelOf(loc, c.Game, c.Variant, c.Start), app.DescribeClock(loc, tc))
	} else {
		text = pub.T("challenge.to", c.Challenger.Name, view.Mention(c.Opponent.ID), what, app.DescribeClock(pub.Locale(), tc))
	}
	if c.Color != "random" {
		text += "\n" + pub.T("challenge.colorpick", c.Challenger.Name, pub.T("color."+c.Color))
	}
	if !c.Rated {
		text += "\n" + pub.T("challenge.casual")
	}
	text += "\n" + pub.T("challenge.expires", app.DiscordTime(c.Expires))
	reply := view.Reply{
		Content: text,
		Components: [][]view.Component{{
			{Kind: view.Button, CustomID: view.ChallengeCustomID(id, "accept"), Label: pub.T("btn.accept"), Style: view.Success},
			{Kind: view.Button, CustomID: view.ChallengeCustomID(id, "decline"), Label: pub.T("btn.decline"), Style: view.Danger},
			{Kind: view.Button, CustomID: view.ChallengeCustomID(id, "cancel"), Label: pub.T("btn.cancel"), Style: view.Secondary},
		}},
	}
	if c.Opponent.ID != "" {
		reply.Mentions = []string{c.Opponent.ID}
	}
	// The transport records the message's id: the challenge's end edits it.
	reply.Sent = b.ChallengeRecorder(id)
	if c.ChannelID != r.ChannelID {
		// A rematch asked from elsewhere goes to the game's place, where
		// its message will be looked for.
		reply.ChannelID = c.ChannelID
	}
	return []view.Reply{reply}, nil
}

// challengeAction handles the Accept/Decline/Cancel buttons.
func challengeAction(b *app.Bot, ctx context.Context, r *app.Req, id int64, action string) ([]view.Reply, error) {
	c, err := b.St.Challenge(ctx, id)
	if errors.Is(err, app.ErrNotFound) {
		return nil, app.Refuse("refuse.nochallenge")
	}
	if err != nil {
		return nil, app.Wrap("load challenge", err)
	}
	if c.GuildID != r.GuildID {
		// Another server's challenge does not exist here.
		return nil, app.Refuse("refuse.nochallenge")
	}
	if c.Status == app.ChExpired || c.Status == app.ChPending && !b.Clk.Now().Before(c.Expires) {
		return expiredAnswer(b, ctx, r, c)
	}
	if c.Status != app.ChPending {
		return nil, app.Refuse("refuse.chaltaken")
	}
	me := r.User.ID
	switch action {
	case "cancel":
		if me != c.Challenger.ID {
			return nil, app.Refuse("refuse.onlychallenger")
		}
		return closeChallenge(b, ctx, r, c, app.ChCancelled, "challenge.cancelled", c.Opponent)
	case "decline":
		if me == c.Challenger.ID {
			return closeChallenge(b, ctx, r, c, app.ChCancelled, "challenge.cancelled", c.Opponent)
		}
		if c.Opponent.ID == "" || me != c.Opponent.ID {
			// An open challenge is declined by not taking it.
			return nil, app.Refuse("refuse.notyours")
		}
		return closeChallenge(b, ctx, r, c, app.ChDeclined, "challenge.declined", c.Challenger)
	case "accept":
		if me == c.Challenger.ID {
			return nil, app.Refuse("refuse.ownchallenge")
		}
		if c.Opponent.ID != "" && me != c.Opponent.ID {
			return nil, app.Refuse("refuse.notyours")
		}
		if r.User.Bot {
			return nil, app.Refuse("refuse.botopp")
		}
		return b.StartGame(ctx, r, c, r.User)
	}
	return nil, app.Refuse("refuse.unknown")
}

// expiredAnswer answers a use of an expired challenge. One still pending
// (its expiry event has not run yet) expires now, in this transaction. A
// click on its buttons updates its message in place (buttons gone, "expired");
// from elsewhere (/accept) the user is told and the message is edited out
// of band.
func expiredAnswer(b *app.Bot, ctx context.Context, r *app.Req, c *app.ChallengeRec) ([]view.Reply, error) {
	own := r.Kind == app.KindComponent
	if c.Status == app.ChPending {
		eff := app.Effects{Cancel: []app.CancelSpec{{Kinds: []string{app.EvExpire}}}}
		if !own {
			// What the expiry event would have queued.
			eff.Posts = b.ExpiryNotice(ctx, c)
		}
		ok, err := b.St.SetChallengeStatus(ctx, c.ID, app.ChExpired, eff)
		if err != nil {
			return nil, app.Wrap("expire challenge", err)
		}
		if !ok {
			// Ended meanwhile: by its expiry event, or answered just in time.
			now, err := b.St.Challenge(ctx, c.ID)
			if err != nil {
				return nil, app.Wrap("load challenge", err)
			}
			if now.Status != app.ChExpired {
				return nil, app.Refuse("refuse.chaltaken")
			}
		}
	}
	if own {
		return []view.Reply{{Update: true, Content: r.Public().T("challenge.expired", c.Challenger.Name)}}, nil
	}
	return nil, app.Refuse("refuse.chalexpired")
}

// closeChallenge ends a pending challenge: its message says so (buttons
// gone) and the other side, if any, is pinged by a new message.
func closeChallenge(b *app.Bot, ctx context.Context, r *app.Req, c *app.ChallengeRec, status, key string, other app.User) ([]view.Reply, error) {
	own := r.Kind == app.KindComponent
	content := r.Public().T(key, r.User.Name)
	eff := app.Effects{Cancel: []app.CancelSpec{{Kinds: []string{app.EvExpire}}}}
	if !own {
		eff.Posts = app.ChallengeEdit(c, content)
	}
	ok, err := b.St.SetChallengeStatus(ctx, c.ID, status, eff)
	if err != nil {
		return nil, app.Wrap("close challenge", err)
	}
	if !ok {
		return nil, app.Refuse("refuse.chaltaken")
	}
	var out []view.Reply
	if own || len(eff.Posts) == 0 {
		out = append(out, view.Reply{Update: own, Content: content})
	}
	if other.ID != "" {
		content, ids := b.Pings(ctx, []app.User{other}, func(loc, who string) string {
			return i18n.T(loc, key+".ping", who, r.User.Name)
		})
		out = append(out, view.Reply{Content: content, Mentions: ids})
	}
	return out, nil
}
