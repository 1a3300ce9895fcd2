package bot

import (
	"context"
	"errors"
	"math/rand/v2"
	"strconv"
	"strings"

	"github.com/tankbot/tankbot/engine"
	"github.com/tankbot/tankbot/store/clock"
)

// challenge handles /challenge [opponent] game map clock color thread.
func (b *Bot) challenge(ctx context.Context, r *req) ([]Reply, error) {
	opt := r.Options
	var opp User
	if id := opt["opponent"]; id != "" {
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
	name := strings.ToLower(strings.TrimSpace(opt["game"]))
	if name == "" {
		name = "tank"
	}
	rules, ok := lookupGame(name)
	if !ok {
		return nil, refuse("refuse.unknowngame", name, strings.Join(gameNames(), ", "))
	}
	variant, start, err := chooseStart(rules, opt["map"], r.loc)
	if err != nil {
		return nil, err
	}
	preset := strings.TrimSpace(opt["clock"])
	if preset == "" {
		preset = b.defaultClock(rules, variant, start)
	}
	tc, ok := parseClock(preset)
	if !ok {
		return nil, refuse("refuse.badclock", preset, strings.Join(clockPresets, ", "))
	}
	color := strings.ToLower(strings.TrimSpace(opt["color"]))
	if color == "" {
		color = "random"
	}
	if color != "white" && color != "black" && color != "random" {
		return nil, refuse("refuse.badcolor")
	}
	thread := b.cfg.ThreadPerGame
	if v, ok := opt["thread"]; ok {
		thread = v == "true"
	}
	if opp.ID != "" {
		pend, err := b.st.pendingChallenges(ctx, r.User.ID)
		if err != nil {
			return nil, wrap("pending challenges", err)
		}
		for _, c := range pend {
			if c.Opponent.ID == opp.ID && c.Challenger.ID == r.User.ID || c.Challenger.ID == opp.ID && c.Opponent.ID == r.User.ID {
				return nil, refuse("refuse.duplicate", opp.Name)
			}
		}
	}
	now := b.clk.Now()
	c := &challengeRec{
		Challenger: r.User, Opponent: opp, Game: rules.Name(), Variant: variant, Start: start,
		Clock: tc.String(), Color: color, Thread: thread, GuildID: r.GuildID, ChannelID: r.ChannelID,
		Status: chPending, Expires: now.Add(b.cfg.ChallengeExpiry),
	}
	return b.postChallenge(ctx, r, c, tc)
}

func (b *Bot) postChallenge(ctx context.Context, r *req, c *challengeRec, tc clock.Settings) ([]Reply, error) {
	id, err := b.st.createChallenge(ctx, c, effects{schedule: []event{{Kind: evExpire, Due: c.Expires}}})
	if errors.Is(err, errDuplicate) {
		return nil, refuse("refuse.duplicate", c.Opponent.Name)
	}
	if err != nil {
		return nil, wrap("create challenge", err)
	}
	c.ID = id
	var text string
	what := variantLabel(c)
	if c.Opponent.ID == "" {
		text = r.t("challenge.open", c.Challenger.Name, c.Game, what, describeClock(r.loc, tc))
	} else {
		text = r.t("challenge.to", c.Challenger.Name, c.Opponent.Name, c.Game, what, describeClock(r.loc, tc))
	}
	if c.Color != "random" {
		text += "\n" + r.t("challenge.colorpick", c.Challenger.Name, r.t("color."+c.Color))
	}
	text += "\n" + r.t("challenge.expires", discordTime(c.Expires))
	reply := Reply{
		Content: text,
		Components: [][]Component{{
			{Kind: Button, CustomID: challengeCustomID(id, "accept"), Label: r.t("btn.accept"), Style: Success},
			{Kind: Button, CustomID: challengeCustomID(id, "decline"), Label: r.t("btn.decline"), Style: Danger},
			{Kind: Button, CustomID: challengeCustomID(id, "cancel"), Label: r.t("btn.cancel"), Style: Secondary},
		}},
	}
	if c.Opponent.ID != "" {
		reply.Mentions = []string{c.Opponent.ID}
	}
	return []Reply{reply}, nil
}

// variantLabel is the map name or "custom".
func variantLabel(c *challengeRec) string {
	if c.Variant != "" {
		return c.Variant
	}
	return "custom"
}

// chooseStart resolves the map option: a variant name, or an encoded start
// position validated by the game's decoder.
func chooseStart(rules engine.Rules, m, loc string) (variant, start string, err error) {
	m = strings.TrimSpace(m)
	vs := rules.Variants()
	if m == "" {
		if len(vs) == 0 {
			return "", "", errors.New("game has no variants")
		}
		return vs[0].Name, vs[0].Position, nil
	}
	for _, v := range vs {
		if strings.EqualFold(v.Name, m) {
			return v.Name, v.Position, nil
		}
	}
	pos, err := rules.Decode(m)
	if err == nil {
		if v, ok := rules.(startValidator); ok {
			err = v.ValidateStart(pos)
		}
	}
	if err != nil {
		return "", "", &refusal{key: "refuse.badmap", args: []string{engineErrorTextLoc(loc, err)}}
	}
	if pos.Status().Over() || len(pos.LegalMoves()) == 0 {
		return "", "", refuse("refuse.finishedmap")
	}
	return "", pos.Encode(), nil
}

// startValidator is implemented by games whose custom start positions obey
// more rules than their notation (tank maps: symmetry, zones, armies).
type startValidator interface {
	ValidateStart(engine.Position) error
}

// defaultClock is the configured preset for the variant or game, else the
// rulebook's: 30 min for boards up to 16 files, 45 for bigger.
func (b *Bot) defaultClock(rules engine.Rules, variant, start string) string {
	if p, ok := b.cfg.DefaultClocks[variant]; ok && variant != "" {
		return p
	}
	if p, ok := b.cfg.DefaultClocks[rules.Name()]; ok {
		return p
	}
	if w := boardWidth(start); w > 16 {
		return "45m"
	}
	return "30m"
}

// boardWidth counts the squares of the first rank of a row-encoded position
// (TFEN-like), for the clock default; 0 when unknown.
func boardWidth(start string) int {
	rows, _, _ := strings.Cut(start, " ")
	first, _, _ := strings.Cut(rows, "/")
	n := 0
	for i := 0; i < len(first); i++ {
		switch ch := first[i]; {
		case ch == '.' || ch == '#':
			n++
		case ch >= 'A' && ch <= 'Z' || ch >= 'a' && ch <= 'z':
			if ch != 'x' && !strings.ContainsRune("nesw", rune(ch)) {
				n++
			}
		}
	}
	return n
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
		if c.Challenger.ID != r.User.ID && (c.Opponent.ID == r.User.ID || c.Opponent.ID == "" && c.ChannelID == r.ChannelID) {
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

// challengeAction handles the Accept/Decline/Cancel buttons.
func (b *Bot) challengeAction(ctx context.Context, r *req, id int64, action string) ([]Reply, error) {
	c, err := b.st.challenge(ctx, id)
	if errors.Is(err, errNotFound) {
		return nil, refuse("refuse.nochallenge")
	}
	if err != nil {
		return nil, wrap("load challenge", err)
	}
	if c.Status == chExpired || c.Status == chPending && !b.clk.Now().Before(c.Expires) {
		return nil, refuse("refuse.chalexpired")
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
		return b.closeChallenge(ctx, r, c, chCancelled, r.t("challenge.cancelled", r.User.Name))
	case "decline":
		if me == c.Challenger.ID {
			return b.closeChallenge(ctx, r, c, chCancelled, r.t("challenge.cancelled", r.User.Name))
		}
		if c.Opponent.ID != "" && me != c.Opponent.ID {
			return nil, refuse("refuse.notyours")
		}
		return b.closeChallenge(ctx, r, c, chDeclined, r.t("challenge.declined", r.User.Name))
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

func (b *Bot) closeChallenge(ctx context.Context, r *req, c *challengeRec, status, text string) ([]Reply, error) {
	ok, err := b.st.setChallengeStatus(ctx, c.ID, status, effects{cancel: []cancelSpec{{kinds: []string{evExpire}}}})
	if err != nil {
		return nil, wrap("close challenge", err)
	}
	if !ok {
		return nil, refuse("refuse.chaltaken")
	}
	return []Reply{{Update: r.Kind == KindComponent, Content: text}}, nil
}

// startGame creates the game of an accepted challenge, opens its thread if
// asked and posts the first board.
func (b *Bot) startGame(ctx context.Context, r *req, c *challengeRec, taker User) ([]Reply, error) {
	rules, ok := lookupGame(c.Game)
	if !ok {
		return nil, refuse("refuse.unknowngame", c.Game, strings.Join(gameNames(), ", "))
	}
	start, err := rules.Decode(c.Start)
	if err != nil {
		return nil, wrap("decode start", err)
	}
	white, black := c.Challenger, taker
	switch c.Color {
	case "black":
		white, black = black, white
	case "random":
		if rand.IntN(2) == 1 {
			white, black = black, white
		}
	}
	tc, _ := parseClock(c.Clock)
	now := b.clk.Now()
	g := &gameRec{
		Rev: 1, Game: c.Game, Variant: c.Variant, Start: c.Start, Pos: start.Encode(), Turn: int(start.Turn()),
		White: white, Black: black, GuildID: c.GuildID, ChannelID: c.ChannelID,
		Clock: tc.String(), ClockState: clock.Start(tc, now), Status: gmActive,
	}
	g.ClockState.ToMove = g.Turn
	var out []Reply
	if c.Thread && b.n != nil {
		tid, err := b.n.CreateThread(ctx, c.ChannelID, r.MessageID, r.t("game.threadname", white.Name, black.Name))
		switch {
		case err == nil:
			g.ChannelID = tid
		case errors.Is(err, ErrNoThreads):
			out = append(out, Reply{Ephemeral: true, Content: r.t("game.nothread")})
			if c.Challenger.ID != r.User.ID {
				out = append(out, Reply{ChannelID: c.ChannelID, Content: r.t("game.nothread"), Mentions: []string{c.Challenger.ID}})
			}
		default:
			b.log.Warn("create thread", "err", err)
		}
	}
	if g.ChannelID != c.ChannelID {
		g.Parent = c.ChannelID
	}
	eff := turnEffects(g, tc)
	eff.cancel = []cancelSpec{{ref: c.ID, kinds: []string{evExpire}}}
	g, err = b.st.acceptChallenge(ctx, c.ID, g, eff)
	switch {
	case errors.Is(err, errTaken):
		return nil, refuse("refuse.chaltaken")
	case errors.Is(err, errActiveGame):
		return nil, refuse("refuse.activegame", c.Challenger.Name, taker.Name)
	case err != nil:
		return nil, wrap("accept challenge", err)
	}
	id := g.ID
	head := r.t("game.started", strconv.FormatInt(id, 10), white.Name, black.Name, c.Game+" "+variantLabel(c), describeClock(r.loc, tc))
	board, err := b.boardReply(ctx, r, g, start, nil, head, false)
	if err != nil {
		return nil, err
	}
	if g.ChannelID != c.ChannelID {
		board.ChannelID = g.ChannelID
		out = append(out, Reply{Update: r.Kind == KindComponent, Content: head})
	} else if r.Kind == KindComponent {
		board.Update = true
	}
	out = append(out, board, b.turnPing(r, g, tc))
	return out, nil
}
