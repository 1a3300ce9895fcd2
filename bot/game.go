package bot

import (
	"context"
	"errors"
	"strconv"
	"strings"
	"time"

	"github.com/tankbot/tankbot/bot/i18n"
	"github.com/tankbot/tankbot/engine"
)

// findGame resolves which game a command means: the game option (of this
// server only), else the one game of the current thread, else the caller's
// only active game in this channel (its threads included), else their only
// active game in the server. With no active game it falls back to the
// caller's most recent game here, which may be over: /board and /history
// show it, the others say how it ended.
func (b *Bot) findGame(ctx context.Context, r *req) (*gameRec, error) {
	if s := strings.TrimSpace(r.Options["game"]); s != "" {
		// Players name games by their number on this server ("#12").
		g, ok, err := b.gameByNumber(ctx, r, s)
		if !ok {
			return nil, refuse("refuse.badgame", clipRunes(strings.TrimPrefix(s, "#"), maxInput))
		}
		return g, err
	}
	games, err := b.st.channelGames(ctx, r.ChannelID)
	if err != nil {
		return nil, wrap("channel games", err)
	}
	var inThread, mine []*gameRec
	for _, g := range games {
		inThread = append(inThread, g)
		if _, ok := g.player(r.User.ID); ok {
			mine = append(mine, g)
		}
	}
	if r.ThreadID != "" && len(inThread) == 1 {
		return inThread[0], nil
	}
	switch len(mine) {
	case 0:
		if len(inThread) == 1 {
			return inThread[0], nil
		}
		if len(inThread) == 0 {
			if g := b.onlyGameInServer(ctx, r); g != nil {
				return g, nil
			}
		}
		if g, err := b.st.lastGame(ctx, r.User.ID, r.ChannelID); err == nil {
			return g, nil
		}
		return nil, refuse("refuse.nogame")
	case 1:
		return mine[0], nil
	}
	ids := make([]string, len(mine))
	for i, g := range mine {
		ids[i] = "#" + g.num()
	}
	return nil, refuse("refuse.whichgame", strings.Join(ids, ", "))
}

// onlyGameInServer is the caller's one active game in this server, or nil.
func (b *Bot) onlyGameInServer(ctx context.Context, r *req) *gameRec {
	games, err := b.st.activeGames(ctx, r.GuildID)
	if err != nil {
		return nil
	}
	var mine *gameRec
	for _, g := range games {
		if _, ok := g.player(r.User.ID); ok {
			if mine != nil {
				return nil
			}
			mine = g
		}
	}
	return mine
}

// loadGame loads a game named by id; another server's game does not exist
// here.
func (b *Bot) loadGame(ctx context.Context, r *req, id int64) (*gameRec, error) {
	g, err := b.st.game(ctx, id)
	if errors.Is(err, errNotFound) || err == nil && g.GuildID != r.GuildID {
		return nil, refuse("refuse.nogame") // ids are internal: never shown
	}
	if err != nil {
		return nil, wrap("load game", err)
	}
	return g, nil
}

// position decodes the game's cached position.
func (g *gameRec) position() (engine.Position, error) { return g.decode(g.Pos, "game position") }

// decode reads an encoded position of g's game (what names it in errors).
func (g *gameRec) decode(enc, what string) (engine.Position, error) {
	rules, ok := lookupGame(g.Game)
	if !ok {
		return nil, errors.New("unknown game " + g.Game)
	}
	p, err := rules.Decode(enc)
	if err != nil {
		return nil, wrap("decode "+what, err)
	}
	return p, nil
}

// mustMove checks the caller may act on g now: a player, the game on, and
// their turn by the position itself (games whose turns do not simply
// alternate by ply, like Gungi's draft, are right too).
func (b *Bot) mustMove(r *req, g *gameRec) (side int, pos engine.Position, err error) {
	side, ok := g.player(r.User.ID)
	if !ok {
		return 0, nil, refuse("refuse.notplayer", g.num())
	}
	if g.Status != gmActive {
		return 0, nil, overRefusal(r, g)
	}
	pos, err = g.position()
	if err != nil {
		return 0, nil, err
	}
	if int(pos.Turn()) != side {
		return 0, nil, refuse("refuse.notyourturn", g.user(1-side).Name)
	}
	return side, pos, nil
}

func (b *Bot) moveCommand(ctx context.Context, r *req) ([]Reply, error) {
	text := strings.TrimSpace(r.Options["move"])
	if text == "" {
		return nil, refuse("refuse.nomove")
	}
	g, err := b.findGame(ctx, r)
	if err != nil {
		return nil, err
	}
	return b.play(ctx, r, g, g.Seq, text)
}

// play is the path of one move: checks, engine, compare-and-set save,
// clocks, events, board and ping. seq is the game sequence the move was
// chosen at (a component's pin); a game that moved on refuses it.
func (b *Bot) play(ctx context.Context, r *req, g *gameRec, seq int, text string) ([]Reply, error) {
	side, pos, err := b.mustMove(r, g)
	if err != nil {
		return nil, err
	}
	if seq != g.Seq {
		return nil, refuse("refuse.stale")
	}
	m, err := pos.ParseMove(text)
	if err != nil {
		return nil, illegal(r, err)
	}
	next, err := pos.Play(m)
	if err != nil {
		return nil, illegal(r, err)
	}
	note := pos.FormatMove(m)
	tc, _ := parseClock(g.Clock)
	now := b.clk.Now()
	outcome := next.Status()
	repKey := ""
	if rp, ok := next.(engine.Repeatable); ok {
		repKey = rp.RepetitionKey()
		if !outcome.Over() {
			o, err := b.repetitionOutcome(ctx, g, note, repKey)
			if err != nil {
				return nil, err
			}
			outcome = o
		}
	}
	if g.ClockState.Flagged(tc, now) {
		// The flag fell before the move arrived: the scheduler may
		// simply not have run yet. Time decides, not the move.
		return b.flagFall(ctx, r.pub, g, g.Ply, r.outOfBand)
	}
	var spent time.Duration
	g.ClockState, spent = g.ClockState.Apply(tc, now)
	// The engine says who moves next (the Gungi draft does not always
	// alternate).
	g.ClockState.ToMove = int(next.Turn())
	g.Pos = next.Encode()
	g.Turn = int(next.Turn())
	g.Ply++
	g.Rev++
	g.Seq++
	g.Last = note
	g.DrawOffer, g.Takeback = 0, 0
	g.Moves[side]++
	if outcome.Over() {
		g.Status, g.Result, g.Reason = gmFinished, outcome.Result.String(), string(outcome.Reason)
	}
	pub := r.public()
	// The record's notation, and what it means when the game can say so
	// (Gungi's draft: "placed the Marshal on a9").
	played := func(loc string) string {
		if w := moveWords(loc, pos, m); w != "" {
			return i18n.T(loc, "game.played.means", r.User.Name, note+suffix(next), w)
		}
		return i18n.T(loc, "game.played", r.User.Name, note+suffix(next))
	}
	head := played(pub.loc)
	for _, a := range next.Announcements() {
		head += "\n" + announceText(pub.loc, g, next, a)
	}
	reply, err := b.boardReply(ctx, pub, g, next, m, head, false)
	if err != nil {
		return nil, err
	}
	if g.Status == gmActive {
		reply.Content, reply.Mentions = b.turnContent(ctx, g, next, r.User, played)
	} else {
		reply.Content, reply.Mentions = b.endContent(ctx, g, played)
		reply.Final = true
	}
	reply.Update = false
	reply.Seq = g.Seq
	reply = inGame(r, g, reply)
	// The board is built before the save so that, out of band, it is
	// queued in the move's own transaction; in answer to an interaction,
	// when it pings somebody, it is queued as the move's fallback ping,
	// cancelled once the transport records that the answer arrived.
	eff := turnEffects(g, tc)
	if r.outOfBand {
		eff.posts = []Reply{reply}
	} else if len(reply.Mentions) > 0 {
		fb := reply
		fb.ChannelID = g.ChannelID
		eff.ping, eff.pingDue = &fb, now.Add(pingFallbackDelay)
	}
	ok, err := b.st.saveGameWith(ctx, g, &moveRec{Notation: note, Side: side, Spent: spent, RepKey: repKey}, eff)
	if err != nil {
		return nil, wrap("save move", err)
	}
	if !ok {
		return nil, refuse("refuse.raced")
	}
	if r.outOfBand {
		// Only the computer moves out of band, in casual games: no
		// rating lines; the record files are not kept in the outbox.
		return nil, nil
	}
	if g.Status != gmActive {
		// Ratings and the record read the saved result.
		b.finalExtras(ctx, pub.loc, g, &reply)
	}
	return []Reply{reply}, nil
}

// repetitionOutcome decides the repetition rule for a move reaching the
// position with key repKey: three occurrences (the start counts) draw. The
// store counts the keys with an index look-up, so a move costs the same at
// ply 10 and ply 10,000; a game begun before keys were stored is replayed.
func (b *Bot) repetitionOutcome(ctx context.Context, g *gameRec, note, repKey string) (engine.Outcome, error) {
	n, partial, err := b.st.repetitions(ctx, g.ID, repKey)
	if err != nil {
		return engine.Outcome{}, wrap("count repetitions", err)
	}
	if partial {
		return b.replayOutcome(ctx, g, note)
	}
	n++ // this move
	rules, _ := lookupGame(g.Game)
	if start, err := rules.Decode(g.Start); err == nil {
		if rp, ok := start.(engine.Repeatable); ok && rp.RepetitionKey() == repKey {
			n++
		}
	}
	if n >= 3 {
		return engine.Drawn(engine.ReasonRepetition), nil
	}
	return engine.Outcome{}, nil
}

// replayOutcome replays the log plus the new move (games whose early moves
// were stored without repetition keys).
func (b *Bot) replayOutcome(ctx context.Context, g *gameRec, note string) (engine.Outcome, error) {
	rules, _ := lookupGame(g.Game)
	start, err := rules.Decode(g.Start)
	if err != nil {
		return engine.Outcome{}, err
	}
	log, err := b.st.moveLog(ctx, g.ID)
	if err != nil {
		return engine.Outcome{}, err
	}
	gm, err := engine.Replay(start, append(log, note))
	if err != nil {
		return engine.Outcome{}, err
	}
	return gm.Outcome(), nil
}

// suffix is the record's announcement mark: tank "+", "-", "+-".
func suffix(p engine.Position) string {
	s := ""
	for _, a := range p.Announcements() {
		switch a.Kind {
		case engine.AnnounceCheck:
			s += "+"
		case engine.AnnounceEscape:
			s += "-"
		}
	}
	if strings.HasPrefix(s, "-+") {
		s = "+-"
	}
	return s
}

// announce translates an announcement; a kind added to the engine after
// the catalog is shown by its name rather than as a missing key.
func announce(loc string, g *gameRec, a engine.Announcement) string {
	if !i18n.Has("announce." + a.Kind) {
		return a.Kind
	}
	return i18n.T(loc, "announce."+a.Kind, g.user(int(a.Side)).Name)
}

// illegal turns an engine error into a translated refusal with the
// engine's close alternatives.
func illegal(r *req, err error) error {
	rf := &refusal{key: "refuse.illegal", args: []string{engineErrorTextLoc(r.loc, err)}}
	var ee *engine.Error
	if errors.As(err, &ee) && len(ee.Alternatives) > 0 {
		rf.extra = append(rf.extra, r.t("refuse.alternatives", strings.Join(ee.Alternatives, ", ")))
	}
	return rf
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

func (b *Bot) boardCommand(ctx context.Context, r *req) ([]Reply, error) {
	g, err := b.findGame(ctx, r)
	if err != nil {
		return nil, err
	}
	if s := strings.TrimSpace(r.Options["ply"]); s != "" {
		return b.boardAtPly(ctx, r, g, s)
	}
	pos, last, err := b.replayLast(ctx, g)
	if err != nil {
		return nil, err
	}
	// A player sees the board from their own side, anyone else from
	// White's; the option and the /settings flip each turn it round.
	// boardReply takes the flip relative to the public board.
	flip := r.Options["flip"] == "true"
	if s, err := b.st.settings(ctx, r.User.ID); err == nil && s.Flip {
		flip = !flip
	}
	if side, ok := g.player(r.User.ID); ok && side == 1 {
		flip = !flip
	}
	if r.Options["public"] != "true" {
		// A personal look: only the caller sees it, in their language,
		// without buttons (the game's own board has them).
		reply, err := b.boardReply(ctx, r, g, pos, last, "", flip != b.publicFlip(pos))
		if err != nil {
			return nil, err
		}
		reply.Ephemeral, reply.Components = true, nil
		return []Reply{reply}, nil
	}
	// Posted for everyone, it becomes the game's board: the old one loses
	// its buttons.
	reply, err := b.boardReply(ctx, r.public(), g, pos, last, "", r.Options["flip"] == "true")
	if err != nil {
		return nil, err
	}
	if g.Status != gmActive {
		reply.Board = false // a finished game's board stays where it is
	}
	return []Reply{inGame(r, g, reply)}, nil
}

// boardAtPly answers /board ply:K: the position after move K (0 the
// start) of any game of this server, finished or not, replayed from its
// log. It is a look at the past, never the game's board: no buttons, no
// clocks, and a public one does not retire the current board.
func (b *Bot) boardAtPly(ctx context.Context, r *req, g *gameRec, text string) ([]Reply, error) {
	k, err := strconv.Atoi(text)
	if err != nil || k < 0 {
		return nil, refuse("refuse.ply-range", clipRunes(text, maxInput), strconv.Itoa(g.Ply))
	}
	pos, last, err := b.positionAt(ctx, g, k)
	if err != nil {
		return nil, err
	}
	log, err := b.st.moveLog(ctx, g.ID)
	if err != nil {
		return nil, wrap("move log", err)
	}
	// The game as it stood after move k.
	past := *g
	past.Ply, past.Last, past.Clock = k, "", "none"
	if k > 0 && k <= len(log) {
		past.Last = log[k-1]
	}
	if k < len(log) {
		past.Status, past.Result, past.Reason = gmActive, "", ""
	}
	public := r.Options["public"] == "true"
	view := r
	if public {
		view = r.public()
	}
	flip := r.Options["flip"] == "true"
	if !public {
		if s, err := b.st.settings(ctx, r.User.ID); err == nil && s.Flip {
			flip = !flip
		}
		if side, ok := g.player(r.User.ID); ok && side == 1 {
			flip = !flip
		}
		flip = flip != b.publicFlip(pos)
	}
	head := view.t("archive.ply", strconv.Itoa(k), strconv.Itoa(len(log)))
	reply, err := b.boardReply(ctx, view, &past, pos, last, head, flip)
	if err != nil {
		return nil, err
	}
	reply.Components, reply.Board, reply.Ephemeral = nil, false, !public
	if public {
		reply = inGame(r, g, reply)
	}
	return []Reply{reply}, nil
}

// replayLast gives the current position and the last move as an engine
// move (for the image's highlight).
func (b *Bot) replayLast(ctx context.Context, g *gameRec) (engine.Position, engine.Move, error) {
	pos, err := g.position()
	if err != nil {
		return nil, nil, err
	}
	if g.Ply == 0 {
		return pos, nil, nil
	}
	rules, _ := lookupGame(g.Game)
	start, err := rules.Decode(g.Start)
	if err != nil {
		return nil, nil, wrap("decode start", err)
	}
	log, err := b.st.moveLog(ctx, g.ID)
	if err != nil || len(log) == 0 {
		return pos, nil, wrap("move log", err)
	}
	prev, err := engine.Replay(start, log[:len(log)-1])
	if err != nil {
		return pos, nil, nil
	}
	m, err := prev.Position().ParseMove(log[len(log)-1])
	if err != nil {
		return pos, nil, nil
	}
	return pos, m, nil
}

func (b *Bot) resignCommand(ctx context.Context, r *req) ([]Reply, error) {
	g, err := b.findGame(ctx, r)
	if err != nil {
		return nil, err
	}
	return b.askResign(r, g)
}

// askResign asks for a confirmation first: a resignation cannot be undone.
func (b *Bot) askResign(r *req, g *gameRec) ([]Reply, error) {
	if _, ok := g.player(r.User.ID); !ok {
		return nil, refuse("refuse.notplayer", g.num())
	}
	if g.Status != gmActive {
		return nil, overRefusal(r, g)
	}
	return []Reply{{
		Ephemeral: true,
		Content:   r.t("resign.confirm", g.num()),
		Components: [][]Component{{
			{Kind: Button, CustomID: gameID(g.ID, g.Seq, "resignyes"), Label: r.t("btn.resign"), Style: Danger},
			{Kind: Button, CustomID: gameID(g.ID, g.Seq, "keep"), Label: r.t("btn.cancel"), Style: Secondary},
		}},
	}}, nil
}

func (b *Bot) resign(ctx context.Context, r *req, g *gameRec) ([]Reply, error) {
	side, ok := g.player(r.User.ID)
	if !ok {
		return nil, refuse("refuse.notplayer", g.num())
	}
	if g.Status != gmActive {
		return nil, overRefusal(r, g)
	}
	o := engine.Win(engine.Side(1-side), engine.ReasonResignation)
	who := r.User.Name
	return b.finish(ctx, r, g, o, func(loc string) string { return i18n.T(loc, "resign.done", who) })
}

// overRefusal is the answer to acting on a finished game: which game, and
// how it ended.
func overRefusal(r *req, g *gameRec) error {
	return refuse("refuse.over", g.num(), outcomeWords(r.loc, g))
}

// end saves g finished with o; its clock events are dropped and posts
// queued for out-of-band delivery in the same transaction.
func (b *Bot) end(ctx context.Context, g *gameRec, o engine.Outcome, posts ...Reply) error {
	g.finish(o)
	eff := turnEffects(g, clockOf(g))
	eff.posts = posts
	ok, err := b.st.saveGameWith(ctx, g, nil, eff)
	if err != nil {
		return wrap("end game", err)
	}
	if !ok {
		return refuse("refuse.raced")
	}
	return nil
}

// finish marks g (in memory) finished with o; saving is the caller's.
func (g *gameRec) finish(o engine.Outcome) {
	if g.Status != gmActive {
		return // already marked (flagFall builds its news first)
	}
	g.Rev++
	g.Status, g.Result, g.Reason = gmFinished, o.Result.String(), string(o.Reason)
	g.DrawOffer, g.Takeback = 0, 0
}

// finish ends g with an outcome decided off the board (resignation,
// agreement, abort) and posts the final board, pinging both players with
// what happened (event) and the result.
func (b *Bot) finish(ctx context.Context, r *req, g *gameRec, o engine.Outcome, event func(loc string) string) ([]Reply, error) {
	if err := b.end(ctx, g, o); err != nil {
		return nil, err
	}
	pos, err := g.position()
	if err != nil {
		return nil, err
	}
	pub := r.public()
	reply, err := b.boardReply(ctx, pub, g, pos, nil, event(pub.loc), false)
	if err != nil {
		return nil, err
	}
	reply.Content, reply.Mentions = b.endContent(ctx, g, event)
	b.finalExtras(ctx, pub.loc, g, &reply)
	return []Reply{inGame(r, g, reply)}, nil
}
