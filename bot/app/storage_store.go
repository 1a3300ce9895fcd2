package app

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/tankbot/tankbot/bot/metrics"
	"github.com/tankbot/tankbot/bot/names"
	"github.com/tankbot/tankbot/bot/outbox"
	"github.com/tankbot/tankbot/store"
)

// OpenSQLite opens (creating and migrating if needed) the database at path.
func OpenSQLite(path string) (Storage, error) {
	st, err := store.Open(context.Background(), path)
	if err != nil {
		return nil, err
	}
	return &storeRepo{db: st, st: st}, nil
}

// NewStorage adapts an open store (the caller keeps using it, e.g. for
// meta entries; Close closes it).
func NewStorage(st *store.Store) Storage { return &storeRepo{db: st, st: st} }

// claimLease is how long a claimed event stays ours: a bot that dies while
// firing it lets it fire again after this.
const claimLease = 2 * time.Minute

// storeRepo implements Storage on *store.Store. The few bot-only fields
// without a column (last move, move counts, the thread flag, the rematch)
// travel in the rows' opaque Extra as JSON.
//
// The kinds of record the bot reads in the store's own types (Ratings,
// Puzzles, Archive, ...) are the store's methods themselves, promoted
// from db.
type storeRepo struct {
	*db
	st *store.Store
}

// db is the store embedded under a name of its own.
type db = store.Store

func (s *storeRepo) Close() error { return s.st.Close() }

func notFound(err error) error {
	if errors.Is(err, store.ErrNotFound) {
		return fmt.Errorf("%w: %w", ErrNotFound, err)
	}
	return err
}

func (s *storeRepo) Settings(ctx context.Context, id string) (userSettings, error) {
	p, err := s.st.Player(ctx, id)
	if errors.Is(err, store.ErrNotFound) {
		return userSettings{}, nil
	}
	if err != nil {
		return userSettings{}, err
	}
	return userSettings{Locale: p.Locale, Flip: p.Flip, Text: p.TextMode, Seen: p.SeenLocale, DMNotices: p.DMNotices, DMChannel: p.DMChannel}, nil
}

func (s *storeRepo) SaveSettings(ctx context.Context, id string, u userSettings) error {
	p, err := s.st.Player(ctx, id)
	if err != nil && !errors.Is(err, store.ErrNotFound) {
		return err
	}
	p.ID, p.Locale, p.Flip, p.TextMode, p.DMNotices = id, u.Locale, u.Flip, u.Text, u.DMNotices
	return s.st.PutPlayer(ctx, p)
}

// challengeExtra is what a challenge keeps beyond the store's columns.
// (Names and locale, "cn", "on", "loc", moved to columns in migration
// 0006.)
type challengeExtra struct {
	Thread  bool  `json:"thread,omitempty"`
	Rematch int64 `json:"rematch,omitempty"`
	// Casual rather than Rated, so challenges stored before ratings
	// existed read as rated.
	Casual bool `json:"casual,omitempty"`
	// NoPosts: made where the bot is not a member (places.go).
	NoPosts bool `json:"noposts,omitempty"`
}

func (s *storeRepo) setSeenLocale(ctx context.Context, id, locale string) error {
	return s.st.SetSeenLocale(ctx, id, locale)
}

// toEffects turns the bot's effects into the store's; posts become outbox
// rows in their stored form (bot/outbox), without files.
func toEffects(e Effects) (store.Effects, error) {
	var out store.Effects
	for _, c := range e.Cancel {
		out.Cancel = append(out.Cancel, store.EventFilter{Ref: c.ref, Kinds: c.Kinds})
	}
	for _, ev := range e.Schedule {
		out.Schedule = append(out.Schedule, store.Event{Kind: ev.Kind, Ref: ev.Ref, Ply: ev.Ply, Due: ev.Due, Payload: ev.Arg})
	}
	for _, p := range e.Posts {
		if p.Reply.ChannelID == "" {
			return out, errors.New("queued post without a channel")
		}
		body, err := outbox.Encode(p)
		if err != nil {
			return out, err
		}
		out.Outbox = append(out.Outbox, store.Message{Channel: p.Reply.ChannelID, Payload: body})
	}
	if p := e.ping; p != nil {
		r := p.Reply
		game, seq, _ := boardOf(r)
		if r.ChannelID == "" || game == 0 || seq == 0 {
			return out, errors.New("fallback ping without a channel, game or sequence")
		}
		body, err := outbox.Encode(*p)
		if err != nil {
			return out, err
		}
		out.Outbox = append(out.Outbox, store.Message{Channel: r.ChannelID, Payload: body, Due: e.pingDue,
			Kind: store.OutboxPing, Game: game, Seq: seq})
	}
	return out, nil
}

func (s *storeRepo) CreateChallenge(ctx context.Context, c *ChallengeRec, eff Effects) (int64, error) {
	se, err := toEffects(eff)
	if err != nil {
		return 0, err
	}
	x, err := json.Marshal(challengeExtra{c.Thread, c.Rematch, !c.Rated, c.NoPosts})
	if err != nil {
		return 0, fmt.Errorf("challenge extra: %w", err)
	}
	out, err := s.st.CreateChallenge(ctx, store.Challenge{
		Challenger: c.Challenger.ID, Challenged: c.Opponent.ID, Kind: c.Game, Variant: c.Variant, Start: c.Start,
		Clock: c.Clock, Side: c.Color, Guild: c.GuildID, Channel: c.ChannelID, Expires: c.Expires, Extra: string(x),
		ChallengerName: names.PlainText(c.Challenger.Name), ChallengedName: names.PlainText(c.Opponent.Name), Locale: c.Locale,
	}, se)
	if errors.Is(err, store.ErrDuplicateChallenge) {
		return 0, fmt.Errorf("%w: %w", ErrDuplicate, err)
	}
	if err != nil {
		return 0, err
	}
	return out.ID, nil
}

func fromChallenge(c *store.Challenge) (*ChallengeRec, error) {
	var x challengeExtra
	if c.Extra != "" {
		if err := json.Unmarshal([]byte(c.Extra), &x); err != nil {
			return nil, fmt.Errorf("challenge %d: extra: %w", c.ID, err)
		}
	}
	return &ChallengeRec{
		ID: c.ID, Challenger: User{ID: c.Challenger, Name: names.MarkName(c.ChallengerName)}, Opponent: User{ID: c.Challenged, Name: names.MarkName(c.ChallengedName)},
		Game: c.Kind, Variant: c.Variant, Start: c.Start, Clock: c.Clock, Color: c.Side, Thread: x.Thread,
		GuildID: c.Guild, ChannelID: c.Channel, Status: c.Status, Expires: c.Expires, Rematch: x.Rematch,
		Locale: c.Locale, MessageID: c.MessageID, Rated: !x.Casual, NoPosts: x.NoPosts,
	}, nil
}

func (s *storeRepo) Challenge(ctx context.Context, id int64) (*ChallengeRec, error) {
	c, err := s.st.Challenge(ctx, id)
	if err != nil {
		return nil, notFound(err)
	}
	return fromChallenge(c)
}

func (s *storeRepo) SetChallengeStatus(ctx context.Context, id int64, status string, eff Effects) (bool, error) {
	se, err := toEffects(eff)
	if err != nil {
		return false, err
	}
	err = s.st.SetChallengeStatus(ctx, id, status, se)
	if errors.Is(err, store.ErrNotPending) {
		return false, nil
	}
	return err == nil, notFound(err)
}

func (s *storeRepo) acceptChallenge(ctx context.Context, id int64, g *Game, eff Effects) (*Game, error) {
	se, err := toEffects(eff)
	if err != nil {
		return nil, err
	}
	row, err := toGame(g)
	if err != nil {
		return nil, err
	}
	out, err := s.st.AcceptChallenge(ctx, id, row, se)
	switch {
	case errors.Is(err, store.ErrNotPending):
		return nil, fmt.Errorf("%w: %w", errTaken, err)
	case errors.Is(err, store.ErrActiveGameExists):
		return nil, fmt.Errorf("%w: %w", errActiveGame, err)
	case err != nil:
		return nil, notFound(err)
	}
	return fromGame(out)
}

func (s *storeRepo) PendingChallenges(ctx context.Context, user string) ([]*ChallengeRec, error) {
	cs, err := s.st.PendingChallenges(ctx, user)
	if err != nil {
		return nil, err
	}
	out := make([]*ChallengeRec, 0, len(cs))
	for _, c := range cs {
		r, err := fromChallenge(c)
		if err != nil {
			return nil, err
		}
		out = append(out, r)
	}
	return out, nil
}

// gameExtra is what a game keeps beyond the store's columns. (Names, the
// computer's level and side and the locale, "wn", "bn", "ai", "aiside",
// "loc", moved to columns in migration 0006.)
type gameExtra struct {
	Last  string `json:"last,omitempty"`
	Moves [2]int `json:"moves"`
}

func extraOf(g *Game) (string, error) {
	x, err := json.Marshal(gameExtra{g.Last, g.Moves})
	if err != nil {
		return "", fmt.Errorf("game %d extra: %w", g.ID, err)
	}
	return string(x), nil
}

func toGame(g *Game) (store.Game, error) {
	x, err := extraOf(g)
	if err != nil {
		return store.Game{}, err
	}
	row := store.Game{
		Kind: g.Game, Variant: g.Variant, Guild: g.GuildID, Channel: g.ChannelID,
		Players: [2]string{g.White.ID, g.Black.ID}, Names: [2]string{names.PlainText(g.White.Name), names.PlainText(g.Black.Name)},
		Start: g.Start, Position: g.Pos, Ply: g.Ply,
		Status: g.Status, Result: g.Result, Reason: g.Reason, Clock: g.Clock, ClockState: g.ClockState,
		DrawOffer: g.DrawOffer, Takeback: g.Takeback, Extra: x, Casual: !g.Rated,
		AILevel: g.AILevel, AISide: g.AISide, Locale: g.Locale, Ladder: g.Ladder, NoPosts: g.NoPosts,
	}
	if g.Parent != "" {
		row.Channel, row.Thread = g.Parent, g.ChannelID
	}
	return row, nil
}

func fromGame(r *store.Game) (*Game, error) {
	var x gameExtra
	if r.Extra != "" {
		if err := json.Unmarshal([]byte(r.Extra), &x); err != nil {
			return nil, fmt.Errorf("game %d: extra: %w", r.ID, err)
		}
	}
	g := &Game{
		ID: r.ID, Rev: int(r.Rev), Seq: int(r.Seq), Game: r.Kind, Variant: r.Variant, Start: r.Start, Pos: r.Position, Ply: r.Ply,
		Turn: r.ClockState.ToMove, Last: x.Last,
		White: User{ID: r.Players[0], Name: names.MarkName(r.Names[0])}, Black: User{ID: r.Players[1], Name: names.MarkName(r.Names[1])},
		GuildID: r.Guild, ChannelID: r.Channel, Clock: r.Clock, ClockState: r.ClockState,
		Status: r.Status, Result: r.Result, Reason: r.Reason, DrawOffer: r.DrawOffer, Takeback: r.Takeback,
		Moves: x.Moves, MessageID: r.MessageID, Number: r.Number, Rated: !r.Casual,
		AILevel: r.AILevel, AISide: r.AISide, Locale: r.Locale, Ladder: r.Ladder, NoPosts: r.NoPosts,
	}
	if r.Thread != "" {
		g.Parent, g.ChannelID = r.Channel, r.Thread
	}
	return g, nil
}

func (s *storeRepo) numberedGame(ctx context.Context, guild string, number int) (*Game, error) {
	a, _, err := s.st.GameByNumber(ctx, guild, number)
	if err != nil {
		return nil, notFound(err)
	}
	return fromGame(a.Game)
}

func (s *storeRepo) game(ctx context.Context, id int64) (*Game, error) {
	r, err := s.st.Game(ctx, id)
	if err != nil {
		return nil, notFound(err)
	}
	return fromGame(r)
}

func update(g *Game) (store.GameUpdate, error) {
	x, err := extraOf(g)
	if err != nil {
		return store.GameUpdate{}, err
	}
	u := store.GameUpdate{
		Position: g.Pos, ClockState: g.ClockState, DrawOffer: g.DrawOffer, Takeback: g.Takeback, Extra: x,
	}
	if g.Status == gmFinished {
		// The rating is counted in the finishing transaction.
		u.Outcome, u.Rate = &store.Outcome{Result: g.Result, Reason: g.Reason}, glickoRule
	}
	return u, nil
}

// stale turns the store's compare-and-set failure into Storage's false.
func stale(err error) (bool, error) {
	if errors.Is(err, store.ErrStalePly) {
		metrics.DBRetries.WithLabelValues("game_write").Inc() // a concurrent change won: the caller re-reads
		return false, nil
	}
	return err == nil, notFound(metrics.DBError("game_write", err))
}

func (s *storeRepo) saveGame(ctx context.Context, g *Game, m *moveRec) (bool, error) {
	return s.saveGameWith(ctx, g, m, Effects{})
}

func (s *storeRepo) saveGameWith(ctx context.Context, g *Game, m *moveRec, eff Effects) (bool, error) {
	u, err := update(g)
	if err != nil {
		return false, err
	}
	if u.Effects, err = toEffects(eff); err != nil {
		return false, err
	}
	if m == nil {
		return stale(s.st.UpdateGame(ctx, g.ID, int64(g.Rev-1), u))
	}
	err = s.st.AppendMove(ctx, g.ID, g.Ply-1, store.MoveRecord{
		Side: m.Side, Notation: m.Notation, Position: g.Pos, Spent: m.Spent, RepKey: m.RepKey,
	}, u)
	if err == nil {
		metrics.Moves.WithLabelValues(g.Game).Inc()
	}
	return stale(err)
}

func (s *storeRepo) takeBack(ctx context.Context, g *Game, n int, eff Effects) (bool, error) {
	u, err := update(g)
	if err != nil {
		return false, err
	}
	if u.Effects, err = toEffects(eff); err != nil {
		return false, err
	}
	// g.Ply is already the ply after the takeback: n moves go.
	return stale(s.st.Takeback(ctx, g.ID, g.Ply+n, n, u))
}

func (s *storeRepo) repetitions(ctx context.Context, id int64, key string) (int, bool, error) {
	return s.st.RepetitionCount(ctx, id, key)
}

func (s *storeRepo) gameList(rows []*store.Game, err error) ([]*Game, error) {
	if err != nil {
		return nil, err
	}
	out := make([]*Game, 0, len(rows))
	for _, r := range rows {
		g, err := fromGame(r)
		if err != nil {
			return nil, err
		}
		out = append(out, g)
	}
	return out, nil
}

func (s *storeRepo) ActiveGames(ctx context.Context, guild string) ([]*Game, error) {
	return s.gameList(s.st.ActiveGames(ctx, guild))
}

func (s *storeRepo) channelGames(ctx context.Context, channel string) ([]*Game, error) {
	return s.gameList(s.st.ChannelGames(ctx, channel))
}

func (s *storeRepo) lastGame(ctx context.Context, user, channel string) (*Game, error) {
	r, err := s.st.LastGame(ctx, user, channel)
	if err != nil {
		return nil, notFound(err)
	}
	return fromGame(r)
}

func (s *storeRepo) MoveLog(ctx context.Context, id int64) ([]string, error) {
	ms, err := s.st.Moves(ctx, id)
	if err != nil {
		return nil, err
	}
	out := make([]string, len(ms))
	for i, m := range ms {
		out[i] = m.Notation
	}
	return out, nil
}

func (s *storeRepo) setBoardMessage(ctx context.Context, id int64, seq int, messageID string, hook store.BoardHook) error {
	return notFound(s.st.RecordBoardVia(ctx, id, seq, messageID, hook))
}

func (s *storeRepo) setPendingBoard(ctx context.Context, id int64, seq int, hook store.BoardHook) error {
	return notFound(s.st.RecordPendingBoard(ctx, id, seq, hook))
}

func (s *storeRepo) setChallengeMessage(ctx context.Context, id int64, messageID string) error {
	return notFound(s.st.SetChallengeMessage(ctx, id, messageID))
}

func (s *storeRepo) claimDue(ctx context.Context, now time.Time) ([]Event, error) {
	evs, err := s.st.ClaimDue(ctx, now, claimLease)
	if err != nil {
		return nil, metrics.DBError("claim_events", err)
	}
	out := make([]Event, len(evs))
	for i, e := range evs {
		out[i] = Event{ID: e.ID, Kind: e.Kind, Ref: e.Ref, Ply: e.Ply, Due: e.Due, Arg: e.Payload, Attempts: e.Attempts}
		metrics.SchedulerLag.Observe(max(0, now.Sub(e.Due).Seconds()))
	}
	return out, nil
}

func (s *storeRepo) complete(ctx context.Context, id int64, eff Effects) error {
	se, err := toEffects(eff)
	if err != nil {
		return err
	}
	return s.st.Complete(ctx, id, se)
}

func (s *storeRepo) claimOutbox(ctx context.Context, now time.Time, limit int) ([]outMsg, error) {
	ms, err := s.st.ClaimOutbox(ctx, now, claimLease, limit)
	if err != nil {
		return nil, err
	}
	out := make([]outMsg, 0, len(ms))
	for _, m := range ms {
		o := outMsg{ID: m.ID, Ping: m.Kind == store.OutboxPing, Strip: m.Kind == store.OutboxStrip, Game: m.Game, Seq: m.Seq, Channel: m.Channel, Nonce: m.Nonce, Attempts: m.Attempts}
		p, err := outbox.Decode(m.Payload)
		if err != nil {
			// A row no bot can read is given up at once rather than
			// retried forever.
			if gerr := s.st.GiveUp(ctx, m.ID, "unreadable payload: "+err.Error()); gerr != nil {
				return nil, gerr
			}
			continue
		}
		o.Post = p
		out = append(out, o)
	}
	return out, nil
}

func (s *storeRepo) sent(ctx context.Context, id int64, messageID string) error {
	return s.st.MarkSent(ctx, id, messageID)
}

func (s *storeRepo) dropPost(ctx context.Context, id int64, reason string) error {
	return s.st.Cancel(ctx, id, reason)
}

func (s *storeRepo) retryAt(ctx context.Context, id int64, next time.Time, reason string) error {
	return s.st.Retry(ctx, id, next, reason)
}

func (s *storeRepo) postpone(ctx context.Context, id int64, next time.Time, reason string) error {
	return s.st.Postpone(ctx, id, next, reason)
}

func (s *storeRepo) giveUp(ctx context.Context, id int64, reason string) error {
	return s.st.GiveUp(ctx, id, reason)
}

func (s *storeRepo) purge(ctx context.Context, before time.Time) (int64, error) {
	return s.st.Purge(ctx, before)
}

func (s *storeRepo) heartbeat(ctx context.Context, now time.Time) error {
	return s.st.Heartbeat(ctx, now)
}

func (s *storeRepo) lastHeartbeat(ctx context.Context) (time.Time, error) {
	return s.st.LastHeartbeat(ctx)
}

func (s *storeRepo) timedGames(ctx context.Context) ([]*Game, error) {
	return s.gameList(s.st.TimedActiveGames(ctx))
}

func (s *storeRepo) reconcileFlags(ctx context.Context, plan func(*Game) []Event) (int, error) {
	return s.st.ReconcileFlags(ctx, evFlag, func(r *store.Game) (store.Event, []store.Event, bool) {
		g, err := fromGame(r)
		if err != nil {
			return store.Event{}, nil, false
		}
		evs := plan(g)
		if len(evs) == 0 {
			return store.Event{}, nil, false
		}
		conv := func(e Event) store.Event {
			return store.Event{Kind: e.Kind, Ref: e.Ref, Ply: e.Ply, Due: e.Due, Payload: e.Arg}
		}
		var extra []store.Event
		for _, e := range evs[1:] {
			extra = append(extra, conv(e))
		}
		return conv(evs[0]), extra, true
	})
}

func (s *storeRepo) SetRated(ctx context.Context, id int64, rated bool) error {
	return s.st.SetRated(ctx, id, rated)
}
