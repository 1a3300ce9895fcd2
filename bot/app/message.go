package app

import (
	"context"
	"errors"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/tankbot/tankbot/bot/i18n"
	"github.com/tankbot/tankbot/engine"
)

// The message flow (docs/flow.md): every move is one new public message,
// the board, whose content pings the player to move in their language;
// the previous board loses its buttons by an edit; every ending pings both
// players. This file holds the pieces those messages share.

// Embed colours: the side to move, red when in check, grey when over.
const (
	colorWhite = 0xE8E6E3
	colorBlack = 0x2B2D31
	colorCheck = 0xE03131
	colorOver  = 0x868E96
)

// maxInput is how much of a user's own text a refusal quotes.
const MaxInput = 100

// clipRunes shortens s to at most n runes, ending with … when cut.
func ClipRunes(s string, n int) string {
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	r := []rune(s)
	if n < 1 {
		return ""
	}
	return string(r[:n-1]) + "…"
}

// public is r speaking to everybody: the server's language.
func (r *Req) Public() *Req {
	p := *r
	p.Loc = r.Pub
	return &p
}

// userLocale is the language a user reads (see Bot.locale).
func (b *Bot) userLocale(ctx context.Context, id string) string {
	return b.Locale(ctx, Command{User: User{ID: id}})
}

// knownLocale is the language a user chose (/settings) or Discord last
// showed for them; known is false when neither is stored.
func (b *Bot) KnownLocale(ctx context.Context, id string) (loc string, known bool) {
	s, err := b.St.Settings(ctx, id)
	if err != nil {
		return "", false
	}
	if s.Locale != "" {
		return s.Locale, true
	}
	if s.Seen != "" {
		return s.Seen, true
	}
	return "", false
}

func Mention(id string) string { return "<@" + id + ">" }

// pings addresses users each in their own language: one line per
// language, built by line from the mentions of the users who read it.
// It returns the content and the ids the message may ping.
func (b *Bot) Pings(ctx context.Context, users []User, line func(loc, mentions string) string) (string, []string) {
	var locs []string
	byLoc := map[string][]string{}
	var ids []string
	for _, u := range users {
		if u.ID == "" || u.ID == b.selfID() || computerEntrant(u.ID) {
			continue // the bot never pings itself (the computer player)
		}
		l := b.userLocale(ctx, u.ID)
		if _, ok := byLoc[l]; !ok {
			locs = append(locs, l)
		}
		byLoc[l] = append(byLoc[l], Mention(u.ID))
		ids = append(ids, u.ID)
	}
	lines := make([]string, 0, len(locs))
	for _, l := range locs {
		lines = append(lines, line(l, strings.Join(byLoc[l], " ")))
	}
	return ClipRunes(strings.Join(lines, "\n"), 2000), ids
}

// gameLabel is a game's human name with its board size when that varies
// ("Tank Chess (16×16)"); a custom start says so.
func GameLabel(loc, game, variant string, pos engine.Position) string {
	name := game
	if i18n.Has("gamename." + game) {
		name = i18n.T(loc, "gamename."+game)
	}
	var size string
	if s, ok := pos.(interface {
		Width() int
		Height() int
	}); ok {
		size = strconv.Itoa(s.Width()) + "×" + strconv.Itoa(s.Height())
	}
	switch {
	case variant == "" && size != "":
		return i18n.T(loc, "game.label.custom", name, size)
	case variant == "":
		return i18n.T(loc, "game.label.customnosize", name)
	case size != "":
		return i18n.T(loc, "game.label", name, size)
	}
	return name
}

// labelOf is gameLabel for a stored start position.
func LabelOf(loc, game, variant, start string) string {
	var pos engine.Position
	if rules, ok := LookupGame(game); ok {
		pos, _ = rules.Decode(start)
	}
	return GameLabel(loc, game, variant, pos)
}

// outcomeWords states a finished game's result: "Black (bob) wins on time".
func OutcomeWords(loc string, g *Game) string {
	reason := g.Reason
	if i18n.Has("reason." + g.Reason) {
		reason = i18n.T(loc, "reason."+g.Reason)
	}
	switch g.Result {
	case engine.WhiteWins.String():
		return i18n.T(loc, "end.win", i18n.T(loc, "game.white"), g.White.Name, reason)
	case engine.BlackWins.String():
		return i18n.T(loc, "end.win", i18n.T(loc, "game.black"), g.Black.Name, reason)
	case engine.Draw.String():
		return i18n.T(loc, "end.draw", reason)
	}
	return i18n.T(loc, "end.aborted")
}

// endContent is the content of a game-ending message: both players pinged,
// each in their language, with what happened (event, may be nil) and the
// result in words.
func (b *Bot) endContent(ctx context.Context, g *Game, event func(loc string) string) (string, []string) {
	id := g.Num()
	return b.Pings(ctx, []User{g.White, g.Black}, func(loc, who string) string {
		if event != nil {
			return i18n.T(loc, "ping.over.event", who, event(loc), id, OutcomeWords(loc, g))
		}
		return i18n.T(loc, "ping.over", who, id, OutcomeWords(loc, g))
	})
}

// inGame sends a public game message to the game's own place when the
// command came from elsewhere (the transport points the user there).
func InGame(r *Req, g *Game, reply Reply) Reply {
	if r.ChannelID != g.ChannelID {
		reply.ChannelID = g.ChannelID
		reply.Update = false
	}
	return reply
}

// announceText explains an announcement in words, naming pieces and
// squares: "CHECK: bob's CLT on H16 is under fire from LT F8." Each game may
// word it ("announce.<game>.<kind>"), else the generic key is used.
func announceText(loc string, g *Game, pos engine.Position, a engine.Announcement) string {
	key := "announce." + g.Game + "." + a.Kind
	if !i18n.Has(key) {
		return "**" + announce(loc, g, a) + "**"
	}
	var from, to []string
	seenTo := map[string]bool{}
	// A game that names its pieces (Tank Chess) writes squares in upper
	// case in its notation, while its lines are lower case.
	pn, named := pos.(interface{ PieceName(string) string })
	sq := func(s string) string {
		if named {
			return strings.ToUpper(s)
		}
		return s
	}
	for _, l := range a.Lines {
		f := sq(l[0])
		if named {
			if n := pn.PieceName(l[0]); n != "" {
				f = n + " " + f
			}
		}
		from = append(from, f)
		if !seenTo[l[1]] {
			seenTo[l[1]] = true
			to = append(to, sq(l[1]))
		}
	}
	const most = 4
	list := func(s []string) string {
		if len(s) > most {
			s = append(s[:most:most], "…")
		}
		return strings.Join(s, ", ")
	}
	// Check and escape are about the side that moved; the victim of a check
	// is the other one. Duties are about the side to move.
	subject := g.User(int(a.Side))
	if a.Kind == engine.AnnounceCheck {
		subject = g.User(1 - int(a.Side))
	}
	return i18n.T(loc, key, subject.Name, list(to), list(from))
}

// turnContent is the board message's content while the game goes on: the
// player to move pinged in their language with who played what, what it
// means and the deadline. When the mover moves again (Gungi draft against a
// ready opponent) nobody is pinged.
func (b *Bot) turnContent(ctx context.Context, g *Game, pos engine.Position, mover User, what func(loc string) string) (string, []string) {
	tc, _ := ParseClock(g.Clock)
	next := g.User(int(pos.Turn()))
	id := g.Num()
	body := func(loc string) string {
		var parts []string
		if what != nil {
			parts = append(parts, what(loc))
		}
		for _, a := range pos.Announcements() {
			parts = append(parts, announceText(loc, g, pos, a))
		}
		if d := g.Deadline(tc); !d.IsZero() {
			parts = append(parts, i18n.T(loc, "ping.yourmove", id, DiscordTime(d)))
		} else {
			parts = append(parts, i18n.T(loc, "ping.yourmove.nodeadline", id))
		}
		return strings.Join(parts, " ")
	}
	if g.AIMoves(int(pos.Turn())) {
		return b.aiTurnContent(ctx, g, pos, mover, next, what)
	}
	if next.ID == mover.ID {
		loc := b.userLocale(ctx, mover.ID)
		return ClipRunes(i18n.T(loc, "ping.again", body(loc)), 2000), nil
	}
	return b.Pings(ctx, []User{next}, func(loc, who string) string {
		return i18n.T(loc, "ping.turn", who, body(loc))
	})
}

// boardColor is the embed's bar: the side to move, red in check, grey
// when the game is over.
func boardColor(g *Game, pos engine.Position) int {
	if g.Status != GmActive {
		return colorOver
	}
	for _, a := range pos.Announcements() {
		if a.Kind == engine.AnnounceCheck {
			return colorCheck
		}
	}
	if pos.Turn() == engine.Black {
		return colorBlack
	}
	return colorWhite
}

// moveWords says in words what a move written in notation does, when the
// game's catalog can: drops ("*M" then the square) name the piece placed,
// and actions with a key "movedesc.<game>.<action>" ("ready", the draft's
// formations) are described. It returns "" otherwise.
func MoveWords(loc string, pos engine.Position, m engine.Move) string {
	game := pos.Rules().Name()
	steps := m.Steps()
	if len(steps) == 0 {
		return ""
	}
	if len(steps) == 2 && strings.HasPrefix(steps[0], "*") && i18n.Has(game+".piece."+steps[0][1:]) {
		return i18n.T(loc, "movedesc.drop", i18n.T(loc, game+".piece."+steps[0][1:]), steps[1])
	}
	action, arg, _ := strings.Cut(steps[0], ":")
	if arg != "" {
		action += "-with" // "ready:quick": ready with a formation
	}
	if key := "movedesc." + game + "." + action; len(steps) == 1 && i18n.Has(key) {
		return i18n.T(loc, key, words(loc, game, arg))
	}
	return ""
}

// confirmed wraps the public replies of an action confirmed in an
// ephemeral message: that message is edited to say what was done (buttons
// gone) and the public ones go to the game's place as new messages.
func Confirmed(r *Req, g *Game, done string) func([]Reply, error) ([]Reply, error) {
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

// engineErrorTextLoc translates an *engine.Error through the catalog key
// "err.<code>"; codes added after the catalog fall back to English.
func engineErrorTextLoc(loc string, err error) string {
	var ee *engine.Error
	if !errors.As(err, &ee) {
		return i18n.T(loc, "refuse.internal")
	}
	if i18n.Has("err." + ee.Code) {
		return i18n.T(loc, "err."+ee.Code, ee.Args...)
	}
	return ee.Msg
}
