package app

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/tankbot/tankbot/bot/i18n"
	"github.com/tankbot/tankbot/bot/rating"
	"github.com/tankbot/tankbot/bot/tournament"
	"github.com/tankbot/tankbot/bot/tournament/director"
	"github.com/tankbot/tankbot/engine"
	"github.com/tankbot/tankbot/engine/ai"
	"github.com/tankbot/tankbot/imaging"
	"github.com/tankbot/tankbot/store"
)

var tournamentCmd = command{
	name: "tournament",
	doc: "Tournaments in the server (docs/tournaments.md), one subcommand per action (the console writes it `action:create`): `create`, `join`, `leave`, `start` (organiser: the creator or Manage Server), " +
		"`standings` (a PNG), `pairings`, `withdraw`, `cancel` (organiser), `export` (the event as a FIDE TRF-16 file). `id`: which tournament (default: the server's latest open one). " +
		"For `create`: `game`, `map`, `clock` as for /challenge, `format` (`round-robin`, `double-round-robin`, `swiss`, `knockout`), `rounds` (Swiss), `rated`, " +
		"`players` (at most), `signup` (sign-up closes after, e.g. `2h`, `1d`), `roundlength` (default `1d`). Round games start by themselves in threads. " +
		"`join` with `level` (1–5, organiser): enters a computer player at that level.",
	opts: []optDef{
		{name: "action", typ: String, required: true, choices: tournamentActions},
		{name: "id", typ: Integer, bounds: atLeast(1)},
		{name: "game", typ: String, choices: gameChoices},
		{name: "map", typ: String, suggest: suggestMaps},
		{name: "clock", typ: String, suggest: suggestClocks},
		{name: "format", typ: String, choices: formatChoices},
		{name: "rounds", typ: Integer, bounds: between(1, tournament.MaxSwissRounds)},
		{name: "rated", typ: Bool},
		{name: "players", typ: Integer, bounds: between(2, tournament.MaxEntrants)},
		{name: "signup", typ: String},
		{name: "roundlength", typ: String},
		{name: "level", typ: Integer, bounds: between(minAILevel, maxAILevel)},
	},
	subs: []subDef{
		{name: "create", opts: []string{"game", "map", "clock", "format", "rounds", "rated", "players", "signup", "roundlength"}},
		{name: "join", opts: []string{"id", "level"}},
		{name: "leave", opts: []string{"id"}},
		{name: "start", opts: []string{"id"}},
		{name: "standings", opts: []string{"id"}},
		{name: "pairings", opts: []string{"id"}},
		{name: "withdraw", opts: []string{"id"}},
		{name: "cancel", opts: []string{"id"}},
		{name: "export", opts: []string{"id"}},
	},
	serverOnly: "place.serveronly.tournament",
	run:        (*Bot).tournament,
}

var tournamentActionNames = []string{"create", "join", "leave", "start", "standings", "pairings", "withdraw", "cancel", "export"}

func tournamentActions() []Choice {
	var out []Choice
	for _, a := range tournamentActionNames {
		out = append(out, Choice{Name: i18n.T(i18n.English, "tournament.action."+a), Value: a, NameLocalizations: localized("tournament.action." + a)})
	}
	return out
}

func formatChoices() []Choice {
	var out []Choice
	for _, f := range []tournament.Format{tournament.RoundRobin, tournament.DoubleRoundRobin, tournament.Swiss, tournament.Knockout} {
		out = append(out, Choice{Name: formatName(i18n.English, f), Value: string(f), NameLocalizations: localized(formatKeyPrefix + string(f))})
	}
	return out
}

// formatName is a format's name in loc.
func formatName(loc string, f tournament.Format) string {
	return i18n.T(loc, formatKeyPrefix+string(f))
}

const formatKeyPrefix = "tournament.format."

// director runs the tournaments on the bot's store and clock; what an
// advance does is announced through the outbox (advancePosts).
func (b *Bot) director() *director.Director {
	return &director.Director{Store: b.st, Now: b.clk.Now, Posts: b.advancePosts, Adjudicated: b.endAdjudicated}
}

// tournament handles /tournament <action>.
func (b *Bot) tournament(ctx context.Context, r *req) ([]Reply, error) {
	if r.GuildID == "" {
		return nil, refuse("tournament.err.noguild")
	}
	action := strings.ToLower(strings.TrimSpace(r.Options["action"]))
	if action == "create" {
		return b.tournamentCreate(ctx, r)
	}
	ev, err := b.findTournament(ctx, r)
	if err != nil {
		return nil, err
	}
	d, id := b.director(), ev.Row.ID
	num := strconv.FormatInt(id, 10)
	actor := tournament.Actor{ID: r.User.ID, ManageServer: r.ManageServer}
	pub := r.public()
	switch action {
	case "join":
		if r.Options["level"] != "" {
			return b.joinComputer(ctx, r, ev, actor)
		}
		e := store.TournamentEntrant{Player: r.User.ID, Name: PlainText(r.User.Name), Rating: b.seedRating(ctx, r.GuildID, ev.Row.Kind, r.User.ID)}
		if err := d.JoinAs(ctx, id, e); err != nil {
			return nil, tournamentRefusal(err)
		}
		return []Reply{{Content: pub.t("tournament.joined", r.User.Name, num)}}, nil
	case "leave":
		if err := d.Leave(ctx, id, r.User.ID); err != nil {
			return nil, tournamentRefusal(err)
		}
		return []Reply{{Content: pub.t("tournament.left", r.User.Name, num)}}, nil
	case "start":
		ps, err := d.Start(ctx, id, actor)
		if err != nil {
			return nil, tournamentRefusal(err)
		}
		ev, err = d.Load(ctx, id)
		if err != nil {
			return nil, wrap("load tournament", err)
		}
		out := []Reply{{Content: pub.t("tournament.started", num, strconv.Itoa(len(ev.T.Entrants)))}}
		return append(out, b.startPairings(ctx, ev, ps, r.pub)...), nil
	case "cancel":
		if err := d.Cancel(ctx, id, actor); err != nil {
			return nil, tournamentRefusal(err)
		}
		return []Reply{{Content: pub.t("tournament.cancelled", num)}}, nil
	case "withdraw":
		decided, err := d.Withdraw(ctx, id, r.User.ID)
		if err != nil {
			return nil, tournamentRefusal(err)
		}
		out := []Reply{{Content: pub.t("tournament.withdrew", r.User.Name, num)}}
		for _, p := range decided {
			if g := b.endDecided(ctx, p, engine.ReasonResignation, nil); g != nil {
				// The opponent learns it in the game's place, by a ping.
				other := g.White
				if other.ID == r.User.ID {
					other = g.Black
				}
				out = append(out, Reply{ChannelID: g.ChannelID, Mentions: []string{other.ID},
					Content: pub.t("tournament.forfeitwin", mention(other.ID), g.Num(), r.User.Name)})
			}
		}
		// The forfeit may have been the round's last game.
		if u, err := d.AdvanceIfOver(ctx, id); err != nil {
			b.log.Warn("advance after withdrawal", "tournament", id, "err", err)
		} else if u.Paired != nil || u.Finished {
			b.announce(ctx, u)
		}
		return out, nil
	case "standings":
		return b.standingsReply(ctx, r, ev)
	case "pairings":
		return []Reply{{Content: b.pairingsText(ctx, r.loc, ev)}}, nil
	case "export":
		var buf bytes.Buffer
		if err := ev.TRF(&buf); err != nil {
			return nil, wrap("export tournament", err)
		}
		return []Reply{{Ephemeral: true, Content: r.t("tournament.export", num),
			Files: []File{{Name: "tournament-" + num + ".trf", ContentType: "text/plain; charset=utf-8", Data: buf.Bytes()}}}}, nil
	}
	return nil, refuse("tournament.err.action", action)
}

// tournamentCreate handles /tournament create.
func (b *Bot) tournamentCreate(ctx context.Context, r *req) ([]Reply, error) {
	opt := r.Options
	rules, variant, start, tc, err := b.gameOptions(r)
	if err != nil {
		return nil, err
	}
	s := tournament.Settings{Format: tournament.Format(strings.ToLower(strings.TrimSpace(opt["format"]))), RoundLength: 24 * time.Hour}
	if s.Format == "" {
		s.Format = tournament.RoundRobin
	}
	if v := opt["rounds"]; v != "" {
		if s.SwissRounds, err = strconv.Atoi(v); err != nil {
			return nil, refuse("tournament.err.number", "rounds", v)
		}
	}
	if v := opt["players"]; v != "" {
		if s.MaxPlayers, err = strconv.Atoi(v); err != nil {
			return nil, refuse("tournament.err.number", "players", v)
		}
		// Given, the limit must be one (0 is not "unlimited").
		if err := tournament.CheckMaxPlayers(s.Format, s.MaxPlayers); err != nil {
			return nil, tournamentRefusal(err)
		}
	}
	if v := strings.TrimSpace(opt["roundlength"]); v != "" {
		var ok bool
		if s.RoundLength, ok = parseSpan(v); !ok {
			return nil, refuse("tournament.err.span", v)
		}
	}
	if v := strings.TrimSpace(opt["signup"]); v != "" {
		span, ok := parseSpan(v)
		if !ok {
			return nil, refuse("tournament.err.span", v)
		}
		s.SignUpDeadline = b.clk.Now().Add(span)
	}
	where := variant
	if where == "" {
		where = start
	}
	row := store.Tournament{Guild: r.GuildID, Channel: r.ChannelID, Creator: r.User.ID, Kind: rules.Name(), Variant: where,
		Clock: tc.String(), Rated: opt["rated"] != "false"}
	ev, err := b.director().Create(ctx, row, s)
	if err != nil {
		return nil, tournamentRefusal(err)
	}
	pub := r.public()
	text := pub.t("tournament.created", r.User.Name, strconv.FormatInt(ev.Row.ID, 10), formatName(pub.loc, s.Format),
		labelOf(pub.loc, rules.Name(), variant, start), describeClock(pub.loc, tc))
	if !s.SignUpDeadline.IsZero() {
		text += "\n" + pub.t("tournament.signupuntil", discordTime(s.SignUpDeadline))
	}
	return []Reply{{Content: text}}, nil
}

// maxSpan bounds sign-up and round lengths (the refusal says so): a
// larger one would overflow the stored deadline.
const maxSpan = 60 * 24 * time.Hour

// parseSpan reads a duration from 1 ns to maxSpan: Go's ("90m", "2h") or
// whole days ("3d").
func parseSpan(s string) (time.Duration, bool) {
	if d, ok := strings.CutSuffix(s, "d"); ok {
		n, err := strconv.Atoi(d)
		return time.Duration(n) * 24 * time.Hour, err == nil && n > 0 && n <= int(maxSpan/(24*time.Hour))
	}
	v, err := time.ParseDuration(s)
	return v, err == nil && v > 0 && v <= maxSpan
}

// findTournament is the tournament the id option names, else the server's
// latest one not over.
func (b *Bot) findTournament(ctx context.Context, r *req) (*director.Event, error) {
	d := b.director()
	if v := r.Options["id"]; v != "" {
		id, err := strconv.ParseInt(v, 10, 64)
		if err != nil {
			return nil, refuse("tournament.err.none")
		}
		ev, err := d.Load(ctx, id)
		if errors.Is(err, store.ErrNotFound) || err == nil && ev.Row.Guild != r.GuildID {
			return nil, refuse("tournament.err.none")
		}
		if err != nil {
			return nil, wrap("load tournament", err)
		}
		return ev, nil
	}
	ts, err := b.st.GuildTournaments(ctx, r.GuildID)
	if err != nil {
		return nil, wrap("guild tournaments", err)
	}
	// The store lists the open and running ones, oldest first.
	if len(ts) == 0 {
		return nil, refuse("tournament.err.none")
	}
	pick := ts[len(ts)-1]
	ev, err := d.Load(ctx, pick.ID)
	if err != nil {
		return nil, wrap("load tournament", err)
	}
	return ev, nil
}

// tournamentRefusal turns the director's errors into catalog refusals.
func tournamentRefusal(err error) error {
	for _, e := range []struct {
		err error
		key string
	}{
		{tournament.ErrBadSettings, "tournament.err.settings"},
		{tournament.ErrNotOrganiser, "tournament.err.organiser"},
		{tournament.ErrNotSignUp, "tournament.err.signupclosed"},
		{tournament.ErrSignUpDeadline, "tournament.err.signupclosed"},
		{tournament.ErrAlreadyJoined, "tournament.err.joined"},
		{tournament.ErrNotEntered, "tournament.err.notentered"},
		{tournament.ErrFull, "tournament.err.full"},
		{tournament.ErrTooFewPlayers, "tournament.err.toofew"},
		{tournament.ErrNotRunning, "tournament.err.notrunning"},
		{tournament.ErrCancelled, "tournament.err.cancelled"},
		{tournament.ErrFinished, "tournament.err.finished"},
		{tournament.ErrAlreadyWithdrawn, "tournament.err.withdrawn"},
	} {
		if errors.Is(err, e.err) {
			if e.err == tournament.ErrBadSettings {
				return refuse(e.key, strings.TrimPrefix(err.Error(), tournament.ErrBadSettings.Error()+": "))
			}
			return refuse(e.key)
		}
	}
	return wrap("tournament", err)
}

// seedRating is the player's rating in the tournament's game on this
// server (it seeds knockouts and numbers players), the default for one
// without rated games there.
func (b *Bot) seedRating(ctx context.Context, guild, kind, player string) float64 {
	rs, err := b.st.PlayerRatings(ctx, guild, player)
	if err != nil {
		b.log.Warn("seed rating", "player", player, "err", err)
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
const computerPrefix = "ai-"

// joinComputer handles /tournament join level:N.
func (b *Bot) joinComputer(ctx context.Context, r *req, ev *director.Event, a tournament.Actor) ([]Reply, error) {
	if !ev.T.IsOrganiser(a) {
		return nil, refuse("tournament.err.organiser")
	}
	if r.guild.NoAI {
		return nil, refuse("server.noai")
	}
	v := r.Options["level"]
	level, err := strconv.Atoi(v)
	if err != nil || level < minAILevel || level > maxAILevel {
		return nil, refuse("refuse.badlevel", v, strconv.Itoa(minAILevel), strconv.Itoa(maxAILevel))
	}
	n := 1
	for _, e := range ev.T.Entrants {
		if strings.HasPrefix(e.Player, computerPrefix) {
			n++
		}
	}
	pub := r.public()
	num, k := strconv.FormatInt(ev.Row.ID, 10), strconv.Itoa(n)
	e := store.TournamentEntrant{Player: computerPrefix + k, Name: pub.t("tournament.ainame", k, strconv.Itoa(level)), AILevel: level,
		Rating: rating.DefaultRating}
	if err := b.director().JoinAs(ctx, ev.Row.ID, e); err != nil {
		return nil, tournamentRefusal(err)
	}
	return []Reply{{Content: pub.t("tournament.joined", markName(e.Name), num)}}, nil
}

// computerEntrant says whether id is a computer entrant's (never pinged).
func computerEntrant(id string) bool { return strings.HasPrefix(id, computerPrefix) }

// aiPlyCap draws a game the computer plays on both sides once it has
// lasted ai.DefaultMaxPly plies, as `tankbot arena` does: two computers
// could otherwise play on forever in a game with no natural end.
func (b *Bot) aiPlyCap(ctx context.Context, g *gameRec) error {
	return b.endWithBoard(ctx, g, engine.Drawn(engine.ReasonAgreement), func(loc string) string {
		return i18n.T(loc, "tournament.plycap", strconv.Itoa(ai.DefaultMaxPly))
	})
}

// entrantUser is a tournament player as a game's user: their stored name
// (marked, escaped at output), a computer entrant flagged as a bot.
func entrantUser(ev *director.Event, id string) User {
	return User{ID: id, Name: markName(ev.Name(id)), Bot: ev.AILevel(id) > 0}
}

// startPairings starts the games of a paired round the way an accepted
// challenge starts (thread, first board pinging both players), each
// claimed on its board; the board's message adds the round's deadline. A
// board that cannot start is logged and left to the round's deadline
// (adjudication); the others still start.
func (b *Bot) startPairings(ctx context.Context, ev *director.Event, ps []tournament.Pairing, pub string) []Reply {
	var out []Reply
	for _, p := range ps {
		if p.IsBye() || p.GameID != 0 || p.Result != tournament.Pending {
			continue
		}
		rs, err := b.startPairing(ctx, ev, p, pub)
		if rf := (*refusal)(nil); errors.As(err, &rf) && rf.key == "refuse.activegame" {
			// The two already play a game in this channel (no threads):
			// they are told, and the board starts when that game ends
			// (startWaiting).
			out = append(out, b.blockedPost(ev, p, pub))
			continue
		}
		if err != nil {
			b.log.Warn("start tournament game", "tournament", ev.Row.ID, "round", p.Round, "board", p.Board, "err", err)
			continue
		}
		out = append(out, rs...)
	}
	return out
}

// blockedPost tells a board's two players that their tournament game
// cannot start beside the game they already play in this channel, that
// it starts as soon as that game ends, and when the round ends.
func (b *Bot) blockedPost(ev *director.Event, p tournament.Pairing, pub string) Reply {
	var pings []string
	for _, id := range []string{p.White, p.Black} {
		if ev.AILevel(id) == 0 {
			pings = append(pings, id)
		}
	}
	return Reply{ChannelID: ev.Row.Channel, Mentions: pings,
		Content: i18n.T(pub, "tournament.blocked", mention(p.White), mention(p.Black), strconv.FormatInt(ev.Row.ID, 10), strconv.Itoa(p.Round),
			discordTime(ev.T.RoundDeadline))}
}

// startWaiting starts the tournament games that waited for g, a game the
// same two players had in the same channel (blockedPost), now that it
// is over.
func (b *Bot) startWaiting(ctx context.Context, g *gameRec) {
	if g.Parent != "" || g.GuildID == "" {
		return // a game in a thread blocks nothing in the channel
	}
	ts, err := b.st.GuildTournaments(ctx, g.GuildID)
	if err != nil {
		b.log.Warn("guild tournaments", "err", err)
		return
	}
	for _, t := range ts {
		if t.Status != string(tournament.Running) || t.Channel != g.ChannelID {
			continue
		}
		ev, err := b.director().Load(ctx, t.ID)
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
			b.queue(ctx, ev.Row.Channel, b.startPairings(ctx, ev, todo, b.cfg.DefaultLocale))
		}
	}
}

func (b *Bot) startPairing(ctx context.Context, ev *director.Event, p tournament.Pairing, pub string) ([]Reply, error) {
	row := ev.Row
	rules, ok := lookupGame(row.Kind)
	if !ok {
		return nil, fmt.Errorf("unknown game %q", row.Kind)
	}
	variant, start, err := chooseStart(rules, row.Variant, pub)
	if err != nil {
		return nil, err
	}
	white, black := entrantUser(ev, p.White), entrantUser(ev, p.Black)
	c := &challengeRec{Challenger: white, Opponent: black, Game: row.Kind, Variant: variant, Start: start, Clock: row.Clock,
		Color: "white", Thread: true, GuildID: row.Guild, ChannelID: row.Channel, Status: chPending,
		Expires: b.clk.Now().Add(row.RoundLength), Rated: row.Rated, Locale: pub}
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
	if c.ID, err = b.st.createChallenge(ctx, c, effects{}); err != nil {
		return nil, wrap("tournament game", err)
	}
	r := &req{Command: Command{Kind: KindSlash, GuildID: row.Guild, ChannelID: row.Channel}, loc: pub, pub: pub}
	rs, err := b.startGame(ctx, r, c, taker)
	if err != nil {
		// The challenge was only the vehicle: it must not stay pending.
		if _, cerr := b.st.setChallengeStatus(ctx, c.ID, chCancelled, effects{}); cerr != nil {
			b.log.Warn("drop tournament challenge", "challenge", c.ID, "err", cerr)
		}
		return nil, err
	}
	for i := range rs {
		if !rs[i].Board || rs[i].GameID == 0 {
			continue
		}
		if err := b.director().SetGame(ctx, row.ID, p.Round, p.Board, rs[i].GameID); err != nil {
			// Another instance started this board first: its game stands.
			if g, gerr := b.st.game(ctx, rs[i].GameID); gerr == nil {
				if eerr := b.end(ctx, g, engine.Outcome{Result: engine.Ongoing, Reason: engine.ReasonAborted}); eerr != nil {
					b.log.Warn("abort doubled tournament game", "game", g.ID, "err", eerr)
				}
			}
			return nil, wrap("claim board", err)
		}
		if rs[i].ChannelID == "" {
			rs[i].ChannelID = row.Channel
		}
		rs[i].Content += "\n" + i18n.T(pub, "tournament.gameline", strconv.FormatInt(row.ID, 10), strconv.Itoa(p.Round), discordTime(ev.T.RoundDeadline))
	}
	return rs, nil
}

// reasonForfeit ends a tournament game decided as a forfeit (catalog
// key reason.forfeit).
const reasonForfeit engine.Reason = "forfeit"

// endDecided ends the running game of a board the tournament decided
// without it (a withdrawal, an adjudication at the round's deadline). With
// event, the game's final board saying it (pinging both players) is queued
// with the result; without, the caller tells the players. It returns the
// game it ended (nil: none).
func (b *Bot) endDecided(ctx context.Context, p tournament.Pairing, reason engine.Reason, event func(loc string) string) *gameRec {
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
		var g *gameRec
		g, err = b.st.game(ctx, p.GameID)
		if err != nil || g.Status != gmActive {
			return nil
		}
		if forfeit && g.Rated {
			if err = b.st.SetRated(ctx, g.ID, false); err != nil {
				continue // ended meanwhile, or the store failed: read it again
			}
			g.Rated = false
		}
		if err = b.endWithBoard(ctx, g, o, event); err == nil {
			return g
		}
	}
	b.log.Warn("end decided tournament game", "game", p.GameID, "err", err)
	return nil
}

// endWithBoard ends g with o and, with event, queues its final board in
// the same transaction (the board is completed, record and replay, at
// delivery).
func (b *Bot) endWithBoard(ctx context.Context, g *gameRec, o engine.Outcome, event func(loc string) string) error {
	if event == nil {
		return b.end(ctx, g, o)
	}
	pos, err := g.Position()
	if err != nil {
		return err
	}
	loc := b.outLocale(g)
	r := &req{Command: Command{GuildID: g.GuildID, ChannelID: g.ChannelID}, loc: loc, pub: loc, outOfBand: true}
	g.Finish(o)
	reply, err := b.boardReply(ctx, r, g, pos, nil, event(loc), false)
	if err != nil {
		return err
	}
	reply.Content, reply.Mentions = b.endContent(ctx, g, event)
	reply.ChannelID = g.ChannelID
	return b.end(ctx, g, o, finalBoardPost(reply))
}

// judge adjudicates a game unfinished at its round's deadline
// (tournament.Adjudicate; docs/tournaments.md).
func (b *Bot) judge(ctx context.Context) director.Judge {
	return func(_ int64, p tournament.Pairing) (tournament.Result, error) {
		if p.GameID == 0 {
			return tournament.DoubleForfeit, nil
		}
		g, err := b.st.game(ctx, p.GameID)
		if err != nil {
			return tournament.Pending, err
		}
		if g.Status != gmActive {
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
	ts, err := b.st.DueTournaments(ctx, b.clk.Now().AddDate(100, 0, 0))
	if err != nil {
		return wrap("running tournaments", err)
	}
	for _, t := range ts {
		if t.Status != string(tournament.Running) {
			continue
		}
		ev, err := b.director().Load(ctx, t.ID)
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
			b.log.Info("resuming tournament round", "tournament", t.ID, "round", ev.T.Round, "games", len(todo))
			b.queue(ctx, ev.Row.Channel, b.startPairings(ctx, ev, todo, b.cfg.DefaultLocale))
		}
	}
	return nil
}

// tournamentTick acts on passed sign-up and round deadlines (the
// scheduler's pass): adjudicated games end, a new round starts.
func (b *Bot) tournamentTick(ctx context.Context) error {
	us, err := b.director().Tick(ctx, b.judge(ctx))
	for _, u := range us {
		b.announce(ctx, u)
	}
	if err != nil {
		return wrap("tournaments", err)
	}
	return nil
}

// endAdjudicated ends the games the round's deadline decided, each with
// its final board pinging both players (director.Adjudicated: called
// before the next round or the final standings are queued, so those come
// after the boards).
func (b *Bot) endAdjudicated(ctx context.Context, _ int64, ps []tournament.Pairing) {
	for _, p := range ps {
		b.endDecided(ctx, p, engine.ReasonTimeout, func(loc string) string { return i18n.T(loc, "tournament.adjudicated") })
	}
}

// tournamentResult is a finished game's result for its tournament.
func tournamentResult(g *gameRec) tournament.Result {
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
func (b *Bot) tournamentGameOver(ctx context.Context, g *gameRec) {
	res := tournamentResult(g)
	if g.GuildID == "" {
		return
	}
	if res == tournament.Pending { // aborted
		b.startWaiting(ctx, g)
		return
	}
	u, err := b.director().GameOver(ctx, g.ID, res)
	if errors.Is(err, tournament.ErrAlreadyRecorded) {
		return // decided by the tournament first (withdrawal, adjudication)
	}
	if err != nil {
		b.log.Warn("tournament game over", "game", g.ID, "err", err)
		return
	}
	if u != nil {
		b.announce(ctx, *u)
		return
	}
	b.startWaiting(ctx, g) // a game outside tournaments may have held one up
}

// announce acts on a director's update: the games of a paired round
// start, their boards queued in the outbox (the round's announcement and
// the final standings were queued with the advance itself: advancePosts).
func (b *Bot) announce(ctx context.Context, u director.Update) {
	ev, err := b.director().Load(ctx, u.ID)
	if err != nil {
		b.log.Warn("load tournament", "tournament", u.ID, "err", err)
		return
	}
	pub := b.cfg.DefaultLocale
	var rs []Reply
	if len(u.Paired) > 0 {
		if !u.Advanced {
			// Round 1 paired by the sign-up deadline: no advance queued its line.
			rs = append(rs, Reply{ChannelID: ev.Row.Channel, Content: b.roundText(pub, ev)})
		}
		rs = append(rs, b.startPairings(ctx, ev, u.Paired, pub)...)
	}
	if u.Cancelled {
		rs = append(rs, Reply{ChannelID: ev.Row.Channel, Content: i18n.T(pub, "tournament.cancelled", strconv.FormatInt(u.ID, 10))})
	}
	b.queue(ctx, ev.Row.Channel, rs)
}

// queue hands rs to the outbox (in channel unless they name theirs): each
// is delivered by the scheduler with its nonce, retried when refused. A
// board's picture is drawn again at delivery.
func (b *Bot) queue(ctx context.Context, channel string, rs []Reply) {
	for _, r := range rs {
		if r.ChannelID == "" {
			r.ChannelID = channel
		}
		body, err := encodePost(queuedAs(r))
		if err == nil {
			_, err = b.st.Enqueue(ctx, store.Message{Channel: r.ChannelID, Payload: body})
		}
		if err != nil {
			b.log.Warn("queue tournament post", "channel", r.ChannelID, "err", err)
		}
	}
}

// advancePosts are the posts of an advance (director.Posts), queued in
// its transaction: the next round's line with its boards, or the final
// standings pinging the podium.
func (b *Bot) advancePosts(ev *director.Event, _ []tournament.Pairing, finished bool) ([]store.Message, error) {
	loc := b.cfg.DefaultLocale
	p := textPost(Reply{ChannelID: ev.Row.Channel, Content: b.roundText(loc, ev)})
	if finished {
		p = b.finalPost(ev, loc)
	}
	body, err := encodePost(p)
	if err != nil {
		return nil, err
	}
	return []store.Message{{Channel: p.reply.ChannelID, Payload: body}}, nil
}

// roundText announces the current round with its boards; nobody is
// pinged here (each game's first board pings its two players).
func (b *Bot) roundText(loc string, ev *director.Event) string {
	head := i18n.T(loc, "tournament.nextround", strconv.FormatInt(ev.Row.ID, 10), strconv.Itoa(ev.T.Round))
	return clipRunes(head+"\n"+strings.Join(b.boardLines(loc, ev), "\n"), 2000)
}

// finalPost announces the winner and pings the podium (the people on
// it); the standings pictures are attached when it is delivered
// (standingsPost: the outbox keeps no files).
func (b *Bot) finalPost(ev *director.Event, loc string) outPost {
	st := ev.T.Standings()
	var podium []string
	var lines []string
	for _, s := range st {
		if s.Rank <= 3 && !s.Withdrawn {
			who := mention(s.Player)
			if ev.AILevel(s.Player) > 0 {
				who = markName(ev.Name(s.Player))
			} else {
				podium = append(podium, s.Player)
			}
			lines = append(lines, i18n.T(loc, "tournament.podium", strconv.Itoa(s.Rank), who))
		}
	}
	return standingsPost(Reply{ChannelID: ev.Row.Channel, Mentions: podium, FallbackText: i18n.T(loc, "tournament.noimage"),
		Content: clipRunes(i18n.T(loc, "tournament.finished", strconv.FormatInt(ev.Row.ID, 10))+"\n"+strings.Join(lines, "\n"), 2000)}, ev.Row.ID)
}

// redrawStandings attaches the standings pictures to a queued post of
// tournament id, drawn from the stored tournament as it stands.
func (b *Bot) redrawStandings(ctx context.Context, r *Reply, id int64) {
	ev, err := b.director().Load(ctx, id)
	if err != nil {
		b.log.Warn("redraw standings", "tournament", id, "err", err)
		return
	}
	r.Files = b.standingsFiles(ev, b.cfg.DefaultLocale)
}

// labels words the pictures in loc, with the entrants' stored names.
func (b *Bot) labels(ev *director.Event, loc string) director.Labels {
	return director.Labels{Text: func(key string, args ...string) string { return i18n.T(loc, key, args...) }, Name: ev.Name}
}

func (b *Bot) standingsFiles(ev *director.Event, loc string) []File {
	var files []File
	pages := director.StandingsPages(ev.T, b.labels(ev, loc))
	if ev.T.Format == tournament.Knockout && ev.T.Round > 0 {
		br := director.BracketOf(ev.T, b.labels(ev, loc))
		if png, err := imaging.RenderBracket(br); err == nil {
			files = append(files, File{Name: "bracket.png", ContentType: "image/png", Data: png, Description: standingsAlt(loc, br.Title, pages)})
		} else {
			b.log.Warn("render bracket", "err", err)
		}
	}
	for i, pg := range pages {
		png, err := imaging.RenderStandings(pg)
		if err != nil {
			b.log.Warn("render standings", "err", err)
			continue
		}
		files = append(files, File{Name: "standings" + strconv.Itoa(i+1) + ".png", ContentType: "image/png", Data: png, Description: standingsAlt(loc, pg.Title, pages)})
	}
	return files
}

func (b *Bot) standingsReply(_ context.Context, r *req, ev *director.Event) ([]Reply, error) {
	if len(ev.T.Entrants) == 0 {
		return nil, refuse("tournament.err.empty")
	}
	return []Reply{{Ephemeral: true, Content: r.t("tournament.standings", strconv.FormatInt(ev.Row.ID, 10)), Files: b.standingsFiles(ev, r.loc),
		FallbackText: r.t("tournament.noimage")}}, nil
}

// pairingsText lists the current round's boards.
func (b *Bot) pairingsText(_ context.Context, loc string, ev *director.Event) string {
	num := strconv.FormatInt(ev.Row.ID, 10)
	if ev.T.Round == 0 {
		return i18n.T(loc, "tournament.nopairings", num)
	}
	lines := append([]string{i18n.T(loc, "tournament.pairings", num, strconv.Itoa(ev.T.Round))}, b.boardLines(loc, ev)...)
	return clipRunes(strings.Join(lines, "\n"), 2000)
}

// boardLines are the current round's boards, one line each, names marked
// (escaped at output).
func (b *Bot) boardLines(loc string, ev *director.Event) []string {
	var lines []string
	name := func(id string) string { return markName(ev.Name(id)) }
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
