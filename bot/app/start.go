package app

import (
	"context"
	"errors"
	"math/rand/v2"
	"strconv"
	"strings"

	"github.com/tankbot/tankbot/bot/i18n"
	"github.com/tankbot/tankbot/bot/names"
	"github.com/tankbot/tankbot/bot/outbox"
	"github.com/tankbot/tankbot/bot/view"
	"github.com/tankbot/tankbot/engine"
	"github.com/tankbot/tankbot/store/clock"
)

// chooseStart resolves the map option: a variant name, or an encoded start
// position validated by the game's decoder.
// gameOptions reads the game, map and clock options a new game is made
// from (/challenge, /tournament create): the defaults for what is not
// given, a refusal naming what is wrong.
func (b *Bot) GameOptions(r *Req) (rules engine.Rules, variant, start string, tc clock.Settings, err error) {
	opt := r.Options
	name := strings.ToLower(strings.TrimSpace(opt["game"]))
	if name == "" {
		name = r.Server().Game // the server's default (/server)
	}
	if name == "" {
		name = DefaultGame()
	}
	rules, ok := LookupGame(name)
	if !ok {
		return nil, "", "", tc, Refuse("refuse.unknowngame", name, strings.Join(GameNames(), ", "))
	}
	if m, given := opt["map"]; given && strings.TrimSpace(m) == "" {
		// A blank map is an empty position, not "the default map".
		_, err := rules.Decode("")
		return nil, "", "", tc, &Refusal{Key: "refuse.badmap", Args: []string{view.EngineError(r.Locale(), err)}}
	}
	m, given := opt["map"]
	if !given {
		m = serverMap(r, rules) // the server's default map (/server)
	}
	variant, start, err = chooseStart(rules, m, r.Locale())
	if err != nil {
		return nil, "", "", tc, err
	}
	preset := strings.TrimSpace(opt["clock"])
	if preset == "" {
		preset = r.Server().Clock
	}
	if preset == "" {
		preset = b.defaultClock(rules, variant, start)
	}
	tc, ok = ParseClock(preset)
	if !ok {
		return nil, "", "", tc, Refuse("refuse.badclock", preset, strings.Join(ClockPresets, ", "))
	}
	return rules, variant, start, tc, nil
}

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
		return "", "", &Refusal{Key: "refuse.badmap", Args: []string{view.EngineError(loc, err)}}
	}
	if pos.Status().Over() || len(pos.LegalMoves()) == 0 {
		return "", "", Refuse("refuse.finishedmap")
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
	if p, ok := b.Cfg.DefaultClocks[variant]; ok && variant != "" {
		return p
	}
	if p, ok := b.Cfg.DefaultClocks[rules.Name()]; ok {
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

// ChallengeEdit is the out-of-band edit of a challenge's own message
// (buttons gone, content replaced), queued in the transaction that ends the
// challenge when something other than a click on that message ends it (a
// typed /accept, the expiry), so it is retried until Discord takes it. Nil
// when the message is unknown (challenges made before its id was kept).
func ChallengeEdit(c *ChallengeRec, content string) []outbox.Post {
	if c.MessageID == "" || c.NoPosts {
		// Where the bot may not edit (places.go), the message keeps its
		// buttons; a click on them answers that the challenge is over.
		return nil
	}
	return []outbox.Post{outbox.Edit(view.Reply{ChannelID: c.ChannelID, Content: content}, c.MessageID)}
}

// StartGame creates the game of an accepted challenge, opens its thread if
// asked and posts the first board.
func (b *Bot) StartGame(ctx context.Context, r *Req, c *ChallengeRec, taker User) ([]view.Reply, error) {
	rules, ok := LookupGame(c.Game)
	if !ok {
		return nil, Refuse("refuse.unknowngame", c.Game, strings.Join(GameNames(), ", "))
	}
	start, err := rules.Decode(c.Start)
	if err != nil {
		return nil, Wrap("decode start", err)
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
	tc, _ := ParseClock(c.Clock)
	now := b.Clk.Now()
	g := &Game{
		Rev: 1, Game: c.Game, Variant: c.Variant, Start: c.Start, Pos: start.Encode(), Turn: int(start.Turn()),
		White: white, Black: black, GuildID: c.GuildID, ChannelID: c.ChannelID,
		Clock: tc.String(), ClockState: clock.Start(tc, now), Status: GmActive,
		Rated:   c.Rated && person(white) && person(black),
		NoPosts: c.NoPosts, Ladder: ladderOf(c.GuildID, c.NoPosts),
	}
	g.ClockState.ToMove = g.Turn
	if c.AILevel > 0 {
		g.AILevel, g.AISide, g.Locale = c.AILevel, 1, r.PubLoc()
		if white.ID == taker.ID {
			g.AISide = 0
		}
		if white.Bot && black.Bot {
			g.AISide = aiBoth // two computer entrants of a tournament
		}
	}
	// own: accepted by a click on the challenge's message, which the
	// answer updates; otherwise (/accept) the message is edited out of band.
	own := r.Kind == KindComponent
	var out []view.Reply
	// The thread must exist before the game's row (the row records it),
	// but its name carries the number the row gets: name it with the
	// number the server's next game will most likely get, and rename it
	// below in the rare case another game took that number first.
	threadNum := 0
	if c.Thread && b.n != nil {
		threadNum, _ = b.St.NextNumber(ctx, c.GuildID)
		name := threadName(r.PubLoc(), threadNum, c, white, black)
		// The thread hangs on the challenge's message, however accepted.
		on := r.MessageID
		if !own {
			on = c.MessageID
		}
		tid, err := b.n.CreateThread(ctx, c.ChannelID, on, name)
		if err != nil && !own && on != "" && !errors.Is(err, ErrNoThreads) {
			// The challenge's message may be gone: a thread of its own.
			tid, err = b.n.CreateThread(ctx, c.ChannelID, "", name)
		}
		switch {
		case err == nil:
			g.ChannelID = tid
		case errors.Is(err, ErrNoThreads):
			// The board below pings both players; the taker learns why
			// there is no thread.
			out = append(out, view.Reply{Ephemeral: true, Content: r.T("game.nothread")})
		default:
			b.Log.Warn("create thread", "err", err)
		}
	}
	if g.ChannelID != c.ChannelID {
		g.Parent = c.ChannelID
	}
	pub := r.Public()
	label := view.GameLabel(pub.Locale(), c.Game, c.Variant, start)
	eff := turnEffects(g, tc)
	eff.Cancel = []CancelSpec{{ref: c.ID, Kinds: []string{EvExpire}}}
	var edit []outbox.Post
	if !own {
		// The game's number is not known before the insert: the edit says
		// who accepted and where the game went.
		text := pub.T("challenge.accepted", taker.Name, white.Name, black.Name, label, DescribeClock(pub.Locale(), tc))
		if g.ChannelID != c.ChannelID {
			text += "\n" + pub.T("game.inthread", "<#"+g.ChannelID+">")
		}
		edit = ChallengeEdit(c, text)
		eff.Posts = append(eff.Posts, edit...)
	}
	g, err = b.St.acceptChallenge(ctx, c.ID, g, eff)
	switch {
	case errors.Is(err, errTaken):
		return nil, Refuse("refuse.chaltaken")
	case errors.Is(err, errActiveGame):
		return nil, Refuse("refuse.activegame", c.Challenger.Name, taker.Name)
	case err != nil:
		return nil, Wrap("accept challenge", err)
	}
	if g.Parent != "" && g.Number != threadNum {
		if rn, ok := b.n.(ThreadRenamer); ok {
			if err := rn.RenameThread(ctx, g.ChannelID, threadName(r.PubLoc(), g.Number, c, white, black)); err != nil {
				b.Log.Warn("rename thread", "game", g.ID, "err", err)
			}
		}
	}
	id := g.Num()
	head := pub.T("game.started", id, white.Name, black.Name, label, DescribeClock(pub.Locale(), tc))
	if !g.Rated {
		head += "\n" + pub.T("challenge.casual")
	}
	board, err := b.BoardReply(ctx, pub, g, start, nil, head, false)
	if err != nil {
		return nil, err
	}
	// The first board pings both players: the game they agreed to exists
	// and one of them is to move.
	// The player to move is named first (the console's hot seat follows
	// the first mention of a board).
	first := g.User(int(start.Turn()))
	var humans []User // the computer is never pinged
	for _, s := range []int{int(start.Turn()), 1 - int(start.Turn())} {
		if !g.AIMoves(s) {
			humans = append(humans, g.User(s))
		}
	}
	board.Content, board.Mentions = b.Pings(ctx, humans, func(loc, who string) string {
		line := i18n.T(loc, "ping.started", who, id, white.Name, black.Name, view.GameLabel(loc, c.Game, c.Variant, start))
		if d := g.Deadline(tc); !d.IsZero() {
			return line + " " + i18n.T(loc, "ping.tomove", first.Name, DiscordTime(d))
		}
		return line + " " + i18n.T(loc, "ping.tomove.nodeadline", first.Name)
	})
	if g.ChannelID != c.ChannelID {
		board.ChannelID = g.ChannelID
		// The challenge message says where the game went, buttons gone
		// (edited out of band when its id is known and it was not clicked).
		if own || edit == nil {
			out = append(out, view.Reply{Update: own, Content: head + "\n" + pub.T("game.inthread", "<#"+g.ChannelID+">")})
		}
	} else if own {
		// The challenge message loses its buttons; the board is new, so
		// its mentions notify.
		out = append(out, view.Reply{Update: true, Content: head})
	}
	out = append(out, board)
	return out, nil
}

// threadName is a game's thread name, "#12 Tank Chess · alice vs bob":
// raw text (names without escapes), clipped to Discord's 100.
func threadName(loc string, number int, c *ChallengeRec, white, black User) string {
	return view.ClipRunes(i18n.T(loc, "game.threadname", strconv.Itoa(number), view.GameLabel(loc, c.Game, c.Variant, nil), names.PlainText(white.Name), names.PlainText(black.Name)), 100)
}

// person is a user whose games may be rated: not a bot account (the AI
// plays as one). A game with any other player is created casual.
func person(u User) bool { return !u.Bot }

// maxPending is how many challenges one user may have waiting at once.
const maxPending = 5

// UnderCap refuses a new challenge from a user who already has maxPending
// waiting (pend: the user's pending challenges).
func (b *Bot) UnderCap(r *Req, pend []*ChallengeRec) error {
	now, n := b.Clk.Now(), 0
	for _, c := range pend {
		if c.Challenger.ID == r.User.ID && c.Status == ChPending && now.Before(c.Expires) {
			n++
		}
	}
	if n >= maxPending {
		return Refuse("refuse.toomany", strconv.Itoa(maxPending))
	}
	return nil
}
