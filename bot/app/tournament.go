package app

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/tankbot/tankbot/bot/i18n"
	"github.com/tankbot/tankbot/bot/names"
	"github.com/tankbot/tankbot/bot/outbox"
	"github.com/tankbot/tankbot/bot/rating"
	"github.com/tankbot/tankbot/bot/tournament"
	"github.com/tankbot/tankbot/bot/tournament/director"
	"github.com/tankbot/tankbot/bot/view"
	"github.com/tankbot/tankbot/engine"
	"github.com/tankbot/tankbot/engine/ai"
	"github.com/tankbot/tankbot/imaging"
	"github.com/tankbot/tankbot/store"
)

// FormatName is a format's name in loc.
func FormatName(loc string, f tournament.Format) string {
	return i18n.T(loc, FormatKeyPrefix+string(f))
}

const FormatKeyPrefix = "tournament.format."

// Director runs the tournaments on the bot's store and clock; what an
// advance does is announced through the outbox (advancePosts).
func (b *Bot) Director() *director.Director {
	return &director.Director{Store: b.St, Now: b.Clk.Now, Posts: b.advancePosts, Adjudicated: b.endAdjudicated}
}

// SeedRating is the player's rating in the tournament's game on this
// server (it seeds knockouts and numbers players), the default for one
// without rated games there.
func (b *Bot) SeedRating(ctx context.Context, guild, kind, player string) float64 {
	rs, err := b.St.PlayerRatings(ctx, guild, player)
	if err != nil {
		b.Log.Warn("seed rating", "player", player, "err", err)
	}
	for _, r := range rs {
		if r.Kind == kind {
			return r.Rating
		}
	}
	return rating.DefaultRating
}

// Computer entrants: the organiser enters the computer at a level, as
// many times as they like; each entry is a player of its own (ids
// "ai-1", "ai-2", … in the tournament, which never collide with Discord's
// numeric ids), unrated, never pinged. Its games are played by the bot's
// computer (ai.go), both sides when two computers meet.
const ComputerPrefix = "ai-"

// computerEntrant says whether id is a computer entrant's (never pinged).
func computerEntrant(id string) bool { return strings.HasPrefix(id, ComputerPrefix) }

// aiPlyCap draws a game the computer plays on both sides once it has
// lasted ai.DefaultMaxPly plies, as `tankbot arena` does: two computers
// could otherwise play on forever in a game with no natural end.
func (b *Bot) aiPlyCap(ctx context.Context, g *Game) error {
	return b.endWithBoard(ctx, g, engine.Drawn(engine.ReasonAgreement), func(loc string) string {
		return i18n.T(loc, "tournament.plycap", strconv.Itoa(ai.DefaultMaxPly))
	})
}

// entrantUser is a tournament player as a game's user: their stored name
// (marked, escaped at output), a computer entrant flagged as a bot.
func entrantUser(ev *director.Event, id string) User {
	return User{ID: id, Name: names.MarkName(ev.Name(id)), Bot: ev.AILevel(id) > 0}
}

// StartPairings starts the games of a paired round the way an accepted
// challenge starts (thread, first board pinging both players), each
// claimed on its board; the board's message adds the round's deadline. A
// board that cannot start is logged and left to the round's deadline
// (adjudication); the others still start.
func (b *Bot) StartPairings(ctx context.Context, ev *director.Event, ps []tournament.Pairing, pub string) []view.Reply {
	var out []view.Reply
	for _, p := range ps {
		if p.IsBye() || p.GameID != 0 || p.Result != tournament.Pending {
			continue
		}
		rs, err := b.startPairing(ctx, ev, p, pub)
		if rf := (*Refusal)(nil); errors.As(err, &rf) && rf.Key == "refuse.activegame" {
			// The two already play a game in this channel (no threads):
			// they are told, and the board starts when that game ends
			// (startWaiting).
			out = append(out, b.blockedPost(ev, p, pub))
			continue
		}
		if err != nil {
			b.Log.Warn("start tournament game", "tournament", ev.Row.ID, "round", p.Round, "board", p.Board, "err", err)
			continue
		}
		out = append(out, rs...)
	}
	return out
}

// blockedPost tells a board's two players that their tournament game
// cannot start beside the game they already play in this channel, that
// it starts as soon as that game ends, and when the round ends.
func (b *Bot) blockedPost(ev *director.Event, p tournament.Pairing, pub string) view.Reply {
	var pings []string
	for _, id := range []string{p.White, p.Black} {
		if ev.AILevel(id) == 0 {
			pings = append(pings, id)
		}
	}
	return view.Reply{ChannelID: ev.Row.Channel, Mentions: pings,
		Content: i18n.T(pub, "tournament.blocked", view.Mention(p.White), view.Mention(p.Black), strconv.FormatInt(ev.Row.ID, 10), strconv.Itoa(p.Round),
			DiscordTime(ev.T.RoundDeadline))}
}

// startWaiting starts the tournament games that waited for g, a game the
// same two players had in the same channel (blockedPost), now that it
// is over.
func (b *Bot) startWaiting(ctx context.Context, g *Game) {
	if g.Parent != "" || g.GuildID == "" {
		return // a game in a thread blocks nothing in the channel
	}
	ts, err := b.St.GuildTournaments(ctx, g.GuildID)
	if err != nil {
		b.Log.Warn("guild tournaments", "err", err)
		return
	}
	for _, t := range ts {
		if t.Status != string(tournament.Running) || t.Channel != g.ChannelID {
			continue
		}
		ev, err := b.Director().Load(ctx, t.ID)
		if err != nil || ev.T.Round == 0 {
			continue
		}
		var todo []tournament.Pairing
		for _, p := range ev.T.Rounds[ev.T.Round-1] {
			if !p.IsBye() && p.GameID == 0 && p.Result == tournament.Pending &&
				(p.White == g.White.ID && p.Black == g.Black.ID || p.White == g.Black.ID && p.Black == g.White.ID) {
				todo = append(todo, p)
			}
		}
		if len(todo) > 0 {
			b.queue(ctx, ev.Row.Channel, b.StartPairings(ctx, ev, todo, b.Cfg.DefaultLocale))
		}
	}
}

func (b *Bot) startPairing(ctx context.Context, ev *director.Event, p tournament.Pairing, pub string) ([]view.Reply, error) {
	row := ev.Row
	rules, ok := LookupGame(row.Kind)
	if !ok {
		return nil, fmt.Errorf("unknown game %q", row.Kind)
	}
	variant, start, err := chooseStart(rules, row.Variant, pub)
	if err != nil {
		return nil, err
	}
	white, black := entrantUser(ev, p.White), entrantUser(ev, p.Black)
	c := &ChallengeRec{Challenger: white, Opponent: black, Game: row.Kind, Variant: variant, Start: start, Clock: row.Clock,
		Color: "white", Thread: true, GuildID: row.Guild, ChannelID: row.Channel, Status: ChPending,
		Expires: b.Clk.Now().Add(row.RoundLength), Rated: row.Rated, Locale: pub}
	taker := black
	// The computer plays the side of the one who accepts (startGame): a
	// computer with White against a person accepts a challenge to Black.
	if lw, lb := ev.AILevel(p.White), ev.AILevel(p.Black); lw > 0 || lb > 0 {
		c.AILevel = lb
		if lw > 0 && (lb == 0 || lw < lb) {
			c.AILevel = lw // two computers play at the lower level
		}
		if lb == 0 {
			c.Challenger, c.Opponent, c.Color, taker = black, white, "black", white
		}
	}
	if c.ID, err = b.St.CreateChallenge(ctx, c, Effects{}); err != nil {
		return nil, Wrap("tournament game", err)
	}
	r := &Req{Command: Command{Kind: KindSlash, GuildID: row.Guild, ChannelID: row.Channel}, Loc: pub, Pub: pub}
	rs, err := b.StartGame(ctx, r, c, taker)
	if err != nil {
		// The challenge was only the vehicle: it must not stay pending.
		if _, cerr := b.St.SetChallengeStatus(ctx, c.ID, ChCancelled, Effects{}); cerr != nil {
			b.Log.Warn("drop tournament challenge", "challenge", c.ID, "err", cerr)
		}
		return nil, err
	}
	for i := range rs {
		game := gameOf(rs[i])
		if game == 0 {
			continue
		}
		if err := b.Director().SetGame(ctx, row.ID, p.Round, p.Board, game); err != nil {
			// Another instance started this board first: its game stands.
			if g, gerr := b.St.game(ctx, game); gerr == nil {
				if eerr := b.end(ctx, g, engine.Outcome{Result: engine.Ongoing, Reason: engine.ReasonAborted}); eerr != nil {
					b.Log.Warn("abort doubled tournament game", "game", g.ID, "err", eerr)
				}
			}
			return nil, Wrap("claim board", err)
		}
		if rs[i].ChannelID == "" {
			rs[i].ChannelID = row.Channel
		}
		rs[i].Content += "\n" + i18n.T(pub, "tournament.gameline", strconv.FormatInt(row.ID, 10), strconv.Itoa(p.Round), DiscordTime(ev.T.RoundDeadline))
	}
	return rs, nil
}

// reasonForfeit ends a tournament game decided as a forfeit (catalog
// key reason.forfeit).
const reasonForfeit engine.Reason = "forfeit"

// EndDecided ends the running game of a board the tournament decided
// without it (a withdrawal, an adjudication at the round's deadline). With
// event, the game's final board saying it (pinging both players) is queued
// with the result; without, the caller tells the players. It returns the
// game it ended (nil: none).
func (b *Bot) EndDecided(ctx context.Context, p tournament.Pairing, reason engine.Reason, event func(loc string) string) *Game {
	if p.GameID == 0 {
		return nil
	}
	// A forfeit (a withdrawal, a side that never moved) is not a game
	// played: it says so in the result line and never counts for ratings.
	forfeit := !p.Result.Played()
	if forfeit {
		reason = reasonForfeit
	}
	o := engine.Drawn(reason)
	switch p.Result {
	case tournament.WhiteWins, tournament.WhiteForfeit:
		o = engine.Win(engine.Side(0), reason)
	case tournament.BlackWins, tournament.BlackForfeit:
		o = engine.Win(engine.Side(1), reason)
	}
	// A move committed meanwhile (a computer player's, or a player's on
	// another instance) makes the save lose its compare-and-set: read the
	// game again and end it at its new ply.
	var err error
	for range 5 {
		var g *Game
		g, err = b.St.game(ctx, p.GameID)
		if err != nil || g.Status != GmActive {
			return nil
		}
		if forfeit && g.Rated {
			if err = b.St.SetRated(ctx, g.ID, false); err != nil {
				continue // ended meanwhile, or the store failed: read it again
			}
			g.Rated = false
		}
		if err = b.endWithBoard(ctx, g, o, event); err == nil {
			return g
		}
	}
	b.Log.Warn("end decided tournament game", "game", p.GameID, "err", err)
	return nil
}

// endWithBoard ends g with o and, with event, queues its final board in
// the same transaction (the board is completed, record and replay, at
// delivery).
func (b *Bot) endWithBoard(ctx context.Context, g *Game, o engine.Outcome, event func(loc string) string) error {
	if event == nil {
		return b.end(ctx, g, o)
	}
	pos, err := g.Position()
	if err != nil {
		return err
	}
	loc := b.outLocale(g)
	r := &Req{Command: Command{GuildID: g.GuildID, ChannelID: g.ChannelID}, Loc: loc, Pub: loc, outOfBand: true}
	*g, _ = g.Finish(o)
	reply, err := b.BoardReply(ctx, r, g, pos, nil, event(loc), false)
	if err != nil {
		return err
	}
	reply.Content, reply.Mentions = b.endContent(ctx, g, event)
	reply.ChannelID = g.ChannelID
	return b.end(ctx, g, o, outbox.FinalBoard(g.ID, reply))
}

// judge adjudicates a game unfinished at its round's deadline
// (tournament.Adjudicate; docs/tournaments.md).
func (b *Bot) judge(ctx context.Context) director.Judge {
	return func(_ int64, p tournament.Pairing) (tournament.Result, error) {
		if p.GameID == 0 {
			return tournament.DoubleForfeit, nil
		}
		g, err := b.St.game(ctx, p.GameID)
		if err != nil {
			return tournament.Pending, err
		}
		if g.Status != GmActive {
			if r := tournamentResult(g); r != tournament.Pending {
				return r, nil
			}
			return tournament.DoubleForfeit, nil // aborted
		}
		pos, err := g.Position()
		if err != nil {
			return tournament.Pending, err
		}
		toMove := int(pos.Turn())
		canWin := true
		if w, ok := pos.(engine.Winnable); ok {
			canWin = w.CanWin(engine.Side(1 - toMove))
		}
		// Moves alternate: the side to move has moved once two plies passed.
		return tournament.Adjudicate(tournament.Colour(toMove), g.Ply >= 2, canWin), nil
	}
}

// resumeTournaments starts the games of the running tournaments' current
// rounds that have none yet: a round paired just before the bot stopped
// (Recover calls it at start). The board's compare-and-set keeps a game
// another instance started meanwhile.
func (b *Bot) resumeTournaments(ctx context.Context) error {
	// Every running tournament has a round deadline (at most 60 days
	// away): all of them are due within a century.
	ts, err := b.St.DueTournaments(ctx, b.Clk.Now().AddDate(100, 0, 0))
	if err != nil {
		return Wrap("running tournaments", err)
	}
	for _, t := range ts {
		if t.Status != string(tournament.Running) {
			continue
		}
		ev, err := b.Director().Load(ctx, t.ID)
		if err != nil || ev.T.Round == 0 {
			continue
		}
		var todo []tournament.Pairing
		for _, p := range ev.T.Rounds[ev.T.Round-1] {
			if !p.IsBye() && p.GameID == 0 && p.Result == tournament.Pending {
				todo = append(todo, p)
			}
		}
		if len(todo) > 0 {
			b.Log.Info("resuming tournament round", "tournament", t.ID, "round", ev.T.Round, "games", len(todo))
			b.queue(ctx, ev.Row.Channel, b.StartPairings(ctx, ev, todo, b.Cfg.DefaultLocale))
		}
	}
	return nil
}

// tournamentTick acts on passed sign-up and round deadlines (the
// scheduler's pass): adjudicated games end, a new round starts.
func (b *Bot) tournamentTick(ctx context.Context) error {
	us, err := b.Director().Tick(ctx, b.judge(ctx))
	for _, u := range us {
		b.Announce(ctx, u)
	}
	if err != nil {
		return Wrap("tournaments", err)
	}
	return nil
}

// endAdjudicated ends the games the round's deadline decided, each with
// its final board pinging both players (director.Adjudicated: called
// before the next round or the final standings are queued, so those come
// after the boards).
func (b *Bot) endAdjudicated(ctx context.Context, _ int64, ps []tournament.Pairing) {
	for _, p := range ps {
		b.EndDecided(ctx, p, engine.ReasonTimeout, func(loc string) string { return i18n.T(loc, "tournament.adjudicated") })
	}
}

// tournamentResult is a finished game's result for its tournament.
func tournamentResult(g *Game) tournament.Result {
	switch g.Result {
	case engine.WhiteWins.String():
		return tournament.WhiteWins
	case engine.BlackWins.String():
		return tournament.BlackWins
	case engine.Draw.String():
		return tournament.Draw
	}
	return tournament.Pending
}

// tournamentGameOver feeds a finished game to its tournament (none: no
// effect) and posts what that did: the next round's games, the final
// standings pinging the podium.
func (b *Bot) tournamentGameOver(ctx context.Context, g *Game) {
	res := tournamentResult(g)
	if g.GuildID == "" {
		return
	}
	if res == tournament.Pending { // aborted
		b.startWaiting(ctx, g)
		return
	}
	u, err := b.Director().GameOver(ctx, g.ID, res)
	if errors.Is(err, tournament.ErrAlreadyRecorded) {
		return // decided by the tournament first (withdrawal, adjudication)
	}
	if err != nil {
		b.Log.Warn("tournament game over", "game", g.ID, "err", err)
		return
	}
	if u != nil {
		b.Announce(ctx, *u)
		return
	}
	b.startWaiting(ctx, g) // a game outside tournaments may have held one up
}

// Announce acts on a director's update: the games of a paired round
// start, their boards queued in the outbox (the round's announcement and
// the final standings were queued with the advance itself: advancePosts).
func (b *Bot) Announce(ctx context.Context, u director.Update) {
	ev, err := b.Director().Load(ctx, u.ID)
	if err != nil {
		b.Log.Warn("load tournament", "tournament", u.ID, "err", err)
		return
	}
	pub := b.Cfg.DefaultLocale
	var rs []view.Reply
	if len(u.Paired) > 0 {
		if !u.Advanced {
			// Round 1 paired by the sign-up deadline: no advance queued its line.
			rs = append(rs, view.Reply{ChannelID: ev.Row.Channel, Content: b.roundText(pub, ev)})
		}
		rs = append(rs, b.StartPairings(ctx, ev, u.Paired, pub)...)
	}
	if u.Cancelled {
		rs = append(rs, view.Reply{ChannelID: ev.Row.Channel, Content: i18n.T(pub, "tournament.cancelled", strconv.FormatInt(u.ID, 10))})
	}
	b.queue(ctx, ev.Row.Channel, rs)
}

// queue hands rs to the outbox (in channel unless they name theirs): each
// is delivered by the scheduler with its nonce, retried when refused. A
// board's picture is drawn again at delivery.
func (b *Bot) queue(ctx context.Context, channel string, rs []view.Reply) {
	for _, r := range rs {
		if r.ChannelID == "" {
			r.ChannelID = channel
		}
		body, err := outbox.Encode(queuedAs(r))
		if err == nil {
			_, err = b.St.Enqueue(ctx, store.Message{Channel: r.ChannelID, Payload: body})
		}
		if err != nil {
			b.Log.Warn("queue tournament post", "channel", r.ChannelID, "err", err)
		}
	}
}

// advancePosts are the posts of an advance (director.Posts), queued in
// its transaction: the next round's line with its boards, or the final
// standings pinging the podium.
func (b *Bot) advancePosts(ev *director.Event, _ []tournament.Pairing, finished bool) ([]store.Message, error) {
	loc := b.Cfg.DefaultLocale
	p := outbox.Text(view.Reply{ChannelID: ev.Row.Channel, Content: b.roundText(loc, ev)})
	if finished {
		p = b.finalPost(ev, loc)
	}
	body, err := outbox.Encode(p)
	if err != nil {
		return nil, err
	}
	return []store.Message{{Channel: p.Reply.ChannelID, Payload: body}}, nil
}

// roundText announces the current round with its boards; nobody is
// pinged here (each game's first board pings its two players).
func (b *Bot) roundText(loc string, ev *director.Event) string {
	head := i18n.T(loc, "tournament.nextround", strconv.FormatInt(ev.Row.ID, 10), strconv.Itoa(ev.T.Round))
	return view.ClipRunes(head+"\n"+strings.Join(b.BoardLines(loc, ev), "\n"), 2000)
}

// finalPost announces the winner and pings the podium (the people on
// it); the standings pictures are attached when it is delivered
// (outbox.Standings: the outbox keeps no files).
func (b *Bot) finalPost(ev *director.Event, loc string) outbox.Post {
	st := ev.T.Standings()
	var podium []string
	var lines []string
	for _, s := range st {
		if s.Rank <= 3 && !s.Withdrawn {
			who := view.Mention(s.Player)
			if ev.AILevel(s.Player) > 0 {
				who = names.MarkName(ev.Name(s.Player))
			} else {
				podium = append(podium, s.Player)
			}
			lines = append(lines, i18n.T(loc, "tournament.podium", strconv.Itoa(s.Rank), who))
		}
	}
	return outbox.Standings(view.Reply{ChannelID: ev.Row.Channel, Mentions: podium, FallbackText: i18n.T(loc, "tournament.noimage"),
		Content: view.ClipRunes(i18n.T(loc, "tournament.finished", strconv.FormatInt(ev.Row.ID, 10))+"\n"+strings.Join(lines, "\n"), 2000)}, ev.Row.ID)
}

// redrawStandings attaches the standings pictures to a queued post of
// tournament id, drawn from the stored tournament as it stands.
func (b *Bot) redrawStandings(ctx context.Context, r *view.Reply, id int64) {
	ev, err := b.Director().Load(ctx, id)
	if err != nil {
		b.Log.Warn("redraw standings", "tournament", id, "err", err)
		return
	}
	r.Files = b.StandingsFiles(ev, b.Cfg.DefaultLocale)
}

// labels words the pictures in loc, with the entrants' stored names.
func (b *Bot) labels(ev *director.Event, loc string) director.Labels {
	return director.Labels{Text: func(key string, args ...string) string { return i18n.T(loc, key, args...) }, Name: ev.Name}
}

func (b *Bot) StandingsFiles(ev *director.Event, loc string) []view.File {
	var files []view.File
	pages := director.StandingsPages(ev.T, b.labels(ev, loc))
	if ev.T.Format == tournament.Knockout && ev.T.Round > 0 {
		br := director.BracketOf(ev.T, b.labels(ev, loc))
		if png, err := imaging.RenderBracket(br); err == nil {
			files = append(files, view.File{Name: "bracket.png", ContentType: "image/png", Data: png, Description: view.StandingsAlt(loc, br.Title, pages)})
		} else {
			b.Log.Warn("render bracket", "err", err)
		}
	}
	for i, pg := range pages {
		png, err := imaging.RenderStandings(pg)
		if err != nil {
			b.Log.Warn("render standings", "err", err)
			continue
		}
		files = append(files, view.File{Name: "standings" + strconv.Itoa(i+1) + ".png", ContentType: "image/png", Data: png, Description: view.StandingsAlt(loc, pg.Title, pages)})
	}
	return files
}

// BoardLines are the current round's boards, one line each, names marked
// (escaped at output).
func (b *Bot) BoardLines(loc string, ev *director.Event) []string {
	var lines []string
	name := func(id string) string { return names.MarkName(ev.Name(id)) }
	for _, p := range ev.T.Rounds[ev.T.Round-1] {
		res := p.Result.String()
		if res == "" {
			res = "…"
		}
		if p.IsBye() {
			lines = append(lines, i18n.T(loc, "tournament.byeline", strconv.Itoa(p.Board), name(p.White)))
			continue
		}
		lines = append(lines, i18n.T(loc, "tournament.boardline", strconv.Itoa(p.Board), name(p.White), name(p.Black), res))
	}
	return lines
}

var TournamentActionNames = []string{"create", "join", "leave", "start", "standings", "pairings", "withdraw", "cancel", "export"}

// maxSpan bounds sign-up and round lengths (the refusal says so): a
// larger one would overflow the stored deadline.
const maxSpan = 60 * 24 * time.Hour

// ParseSpan reads a duration from 1 ns to maxSpan: Go's ("90m", "2h") or
// whole days ("3d").
func ParseSpan(s string) (time.Duration, bool) {
	if d, ok := strings.CutSuffix(s, "d"); ok {
		n, err := strconv.Atoi(d)
		return time.Duration(n) * 24 * time.Hour, err == nil && n > 0 && n <= int(maxSpan/(24*time.Hour))
	}
	v, err := time.ParseDuration(s)
	return v, err == nil && v > 0 && v <= maxSpan
}
