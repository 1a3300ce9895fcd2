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

// findGame resolves which game a command means: the game option, else the
// game of the current thread, else the caller's only active game in the
// channel.
func (b *Bot) findGame(ctx context.Context, r *req) (*gameRec, error) {
	if s := strings.TrimPrefix(strings.TrimSpace(r.Options["game"]), "#"); s != "" {
		id, err := strconv.ParseInt(s, 10, 64)
		if err != nil {
			return nil, refuse("refuse.badgame", s)
		}
		return b.loadGame(ctx, id)
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
		return nil, refuse("refuse.nogame")
	case 1:
		return mine[0], nil
	}
	ids := make([]string, len(mine))
	for i, g := range mine {
		ids[i] = "#" + strconv.FormatInt(g.ID, 10)
	}
	return nil, refuse("refuse.whichgame", strings.Join(ids, ", "))
}

func (b *Bot) loadGame(ctx context.Context, id int64) (*gameRec, error) {
	g, err := b.st.game(ctx, id)
	if errors.Is(err, errNotFound) {
		return nil, refuse("refuse.badgame", strconv.FormatInt(id, 10))
	}
	if err != nil {
		return nil, wrap("load game", err)
	}
	return g, nil
}

// position decodes the game's cached position.
func (g *gameRec) position() (engine.Position, error) {
	rules, ok := lookupGame(g.Game)
	if !ok {
		return nil, errors.New("unknown game " + g.Game)
	}
	p, err := rules.Decode(g.Pos)
	if err != nil {
		return nil, wrap("decode game position", err)
	}
	return p, nil
}

// mustMove checks the caller may act on g now: a player, the game on, and
// their turn by the position itself (games whose turns do not simply
// alternate by ply, like Gungi's draft, are right too).
func (b *Bot) mustMove(r *req, g *gameRec) (side int, pos engine.Position, err error) {
	side, ok := g.player(r.User.ID)
	if !ok {
		return 0, nil, refuse("refuse.notplayer", strconv.FormatInt(g.ID, 10))
	}
	if g.Status != gmActive {
		return 0, nil, refuse("refuse.finished", strconv.FormatInt(g.ID, 10))
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
	return b.play(ctx, r, g, g.Ply, text)
}

// play is the path of one move: checks, engine, compare-and-set save,
// clocks, events, board and ping.
func (b *Bot) play(ctx context.Context, r *req, g *gameRec, ply int, text string) ([]Reply, error) {
	side, pos, err := b.mustMove(r, g)
	if err != nil {
		return nil, err
	}
	if ply != g.Ply {
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
	if _, rep := next.(engine.Repeatable); rep && !outcome.Over() {
		if o, err := b.replayOutcome(ctx, g, note); err == nil {
			outcome = o
		}
	}
	if g.ClockState.Flagged(tc, now) {
		// The flag fell before the move arrived: the scheduler may
		// simply not have run yet. Time decides, not the move.
		return b.flagFall(ctx, r.loc, g, g.Ply)
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
	g.Last = note
	g.DrawOffer, g.Takeback = 0, 0
	g.Moves[side]++
	if outcome.Over() {
		g.Status, g.Result, g.Reason = gmFinished, outcome.Result.String(), string(outcome.Reason)
	}
	ok, err := b.st.saveGame(ctx, g, &moveRec{Notation: note, Side: side, Spent: spent})
	if err != nil {
		return nil, wrap("save move", err)
	}
	if !ok {
		return nil, refuse("refuse.raced")
	}
	if g.Status == gmActive {
		if err := b.scheduleClock(ctx, g, tc); err != nil {
			return nil, err
		}
	} else {
		_ = b.st.cancelEvents(ctx, g.ID, evFlag, evRemind)
	}
	head := r.t("game.played", r.User.Name, note+suffix(next))
	for _, a := range next.Announcements() {
		head += "\n**" + announce(r.loc, g, a) + "**"
	}
	reply, err := b.boardReply(ctx, r, g, next, m, head, false)
	if err != nil {
		return nil, err
	}
	if r.Kind == KindComponent {
		reply.Update = false
	}
	out := []Reply{reply}
	if g.Status == gmActive {
		out = append(out, b.turnPing(r, g, tc))
	}
	return out, nil
}

// replayOutcome replays the log plus the new move for games with a
// repetition rule (the board alone cannot tell).
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
	reply, err := b.boardReply(ctx, r, g, pos, last, "", flip != b.publicFlip(pos))
	if err != nil {
		return nil, err
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
	return b.resign(ctx, r, g)
}

func (b *Bot) resign(ctx context.Context, r *req, g *gameRec) ([]Reply, error) {
	side, ok := g.player(r.User.ID)
	if !ok {
		return nil, refuse("refuse.notplayer", strconv.FormatInt(g.ID, 10))
	}
	if g.Status != gmActive {
		return nil, refuse("refuse.finished", strconv.FormatInt(g.ID, 10))
	}
	o := engine.Win(engine.Side(1-side), engine.ReasonResignation)
	return b.finish(ctx, r.loc, g, o, r.t("resign.done", r.User.Name))
}

// end saves g finished with o and cancels its clock events.
func (b *Bot) end(ctx context.Context, g *gameRec, o engine.Outcome) error {
	g.Rev++
	g.Status, g.Result, g.Reason = gmFinished, o.Result.String(), string(o.Reason)
	g.DrawOffer, g.Takeback = 0, 0
	ok, err := b.st.saveGame(ctx, g, nil)
	if err != nil {
		return wrap("end game", err)
	}
	if !ok {
		return refuse("refuse.raced")
	}
	_ = b.st.cancelEvents(ctx, g.ID, evFlag, evRemind)
	return nil
}

// finish ends g with an outcome decided off the board and announces it.
func (b *Bot) finish(ctx context.Context, loc string, g *gameRec, o engine.Outcome, head string) ([]Reply, error) {
	if err := b.end(ctx, g, o); err != nil {
		return nil, err
	}
	pos, err := g.position()
	if err != nil {
		return nil, err
	}
	r := &req{loc: loc}
	reply, err := b.boardReply(ctx, r, g, pos, nil, head, false)
	if err != nil {
		return nil, err
	}
	return []Reply{reply}, nil
}
