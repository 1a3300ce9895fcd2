// Package outbox holds what the bot queues to post later (the computer's
// moves, flag-falls, reminders, expiries, fallback pings, daily puzzles,
// standings): typed posts, each kind with its own delivery, and their
// stored form. A queued post is stored as its kind, the ids its kind reads
// at delivery and the message as worded when it was queued (without
// files: pictures are drawn at delivery):
//
//	{"kind":"final","ids":{"game":12},"reply":{...}}
//
// Adding a kind is a type here with its Deliver and a line in kinds, not
// a branch in a shared function. What a kind needs of the application to
// draw and record its post it asks of Env, which bot/app implements; the
// claiming, retrying and rate limiting of the rows is bot/app's scheduler.
package outbox

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/tankbot/tankbot/bot/view"
)

// Kind is one kind of queued post, holding its ids.
type Kind interface {
	// Deliver sends r, the post's message, for outbox row m and returns
	// the id of the message it became.
	Deliver(ctx context.Context, e Env, m Msg, r view.Reply) (string, error)
	// Final reports whether the post is a game's final board, which a
	// game over does not make needless.
	Final() bool
	// Game is the game whose board the post shows (0: none).
	Game() int64
	// Name is the kind as stored (a key of kinds).
	Name() string
}

// Msg is the outbox row being delivered: its channel and the nonce that
// makes a new message be created at most once however often it is resent.
type Msg struct {
	Channel, Nonce string
}

// Env is what the kinds' deliveries use of the application.
type Env interface {
	// Post sends r to channel as a new message (r.Nonce set) and
	// returns its id; Edit changes message msg.
	Post(ctx context.Context, channel string, r view.Reply) (string, error)
	Edit(ctx context.Context, channel, msg string, r view.Reply) error
	// RedrawBoard makes r game's board as it stands: its picture drawn
	// anew (when r shows one) and the message it becomes recorded as the
	// game's board (r.Sent); FinalBoard does the same for a finished game
	// and adds its rating lines, record and replay.
	RedrawBoard(ctx context.Context, game int64, r *view.Reply)
	FinalBoard(ctx context.Context, game int64, r *view.Reply)
	// DrawDaily draws a daily puzzle's board into r; DailyDelivered
	// records the message it became.
	DrawDaily(r *view.Reply, d DailyRef)
	DailyDelivered(ctx context.Context, d DailyRef, messageID string)
	// RedrawStandings draws a tournament's standings into r.
	RedrawStandings(ctx context.Context, r *view.Reply, tournament int64)
}

// DailyRef names a server's daily puzzle post (the ids of its kind).
type DailyRef struct {
	Guild, Day, Game, Puzzle, Locale string
}

// kinds names every kind as stored.
var kinds = map[string]func() Kind{
	"text":      func() Kind { return &textKind{} },
	"board":     func() Kind { return &boardKind{} },
	"final":     func() Kind { return &finalKind{} },
	"daily":     func() Kind { return &dailyKind{} },
	"standings": func() Kind { return &standingsKind{} },
	"edit":      func() Kind { return &editKind{} },
}

// Post is a message to queue and its kind.
type Post struct {
	Kind  Kind
	Reply view.Reply
}

// Text is a message that goes as worded.
func Text(r view.Reply) Post { return Post{&textKind{}, r} }

// Board is game's board, its picture drawn at delivery from the game as
// it stands.
func Board(game int64, r view.Reply) Post { return Post{&boardKind{ID: game}, r} }

// FinalBoard is game's final board: picture, rating lines, record and
// replay added at delivery from the committed game.
func FinalBoard(game int64, r view.Reply) Post { return Post{&finalKind{ID: game}, r} }

// Daily is a server's daily puzzle; its delivery is recorded.
func Daily(r view.Reply, d DailyRef) Post { return Post{&dailyKind{d}, r} }

// Standings is a tournament's final standings, pictures drawn at
// delivery.
func Standings(r view.Reply, tournament int64) Post {
	return Post{&standingsKind{Tournament: tournament}, r}
}

// Edit changes message messageID of r.ChannelID (components replaced,
// content when set) instead of posting anew; it notifies nobody.
func Edit(r view.Reply, messageID string) Post {
	return Post{&editKind{Message: messageID}, r}
}

// storedPost is a post's stored form.
type storedPost struct {
	Kind  string          `json:"kind"`
	IDs   json.RawMessage `json:"ids,omitempty"`
	Reply view.Reply      `json:"reply"`
}

// Encode is p as an outbox payload.
func Encode(p Post) (string, error) {
	r := p.Reply
	r.Files = nil
	ids, err := json.Marshal(p.Kind)
	if err != nil {
		return "", fmt.Errorf("queued post: %w", err)
	}
	body, err := json.Marshal(storedPost{Kind: p.Kind.Name(), IDs: ids, Reply: r})
	if err != nil {
		return "", fmt.Errorf("queued post: %w", err)
	}
	return string(body), nil
}

// Decode reads an outbox payload: the stored form above, or the form
// written before post kinds (a whole Reply with its markers, by 441ce77
// and earlier), which still sits in old databases' outboxes.
func Decode(payload string) (Post, error) {
	var s struct {
		Kind *string         `json:"kind"`
		IDs  json.RawMessage `json:"ids"`
		// Reply is read below: json.RawMessage keeps it lazy.
		Reply json.RawMessage `json:"reply"`
	}
	if err := json.Unmarshal([]byte(payload), &s); err != nil {
		return Post{}, err
	}
	if s.Kind == nil {
		return decodeLegacy(payload)
	}
	mk, ok := kinds[*s.Kind]
	if !ok {
		return Post{}, fmt.Errorf("unknown post kind %q", *s.Kind)
	}
	p := Post{Kind: mk()}
	if len(s.IDs) > 0 {
		if err := json.Unmarshal(s.IDs, p.Kind); err != nil {
			return Post{}, fmt.Errorf("post kind %s: %w", *s.Kind, err)
		}
	}
	var r oldReply
	if err := json.Unmarshal(s.Reply, &r); err != nil {
		return Post{}, fmt.Errorf("post kind %s: %w", *s.Kind, err)
	}
	p.Reply = r.reply()
	return p, nil
}

// oldReply reads a stored Reply with the fields it had before they became
// generic: the board's position as Position and Game (now Shows); GameID,
// Board, ChallengeID and Seq, which said what to record (now the kind's
// ids and the row's), are read only by decodeLegacy.
type oldReply struct {
	view.Reply
	GameID   int64
	Board    bool
	Position string
	Game     string
}

func (o oldReply) reply() view.Reply {
	r := o.Reply
	if r.Shows == nil && o.Position != "" {
		r.Shows = &view.Shown{Game: o.Game, Position: o.Position}
	}
	return r
}

// legacyReply is the outbox payload before post kinds: a Reply with the
// markers that said how to draw it.
type legacyReply struct {
	oldReply
	Edit       string    `json:",omitempty"`
	Daily      *DailyRef `json:",omitempty"`
	Tournament int64     `json:",omitempty"`
	Final      bool      `json:",omitempty"`
}

func decodeLegacy(payload string) (Post, error) {
	var l legacyReply
	if err := json.Unmarshal([]byte(payload), &l); err != nil {
		return Post{}, err
	}
	r := l.reply()
	switch {
	case l.Edit != "":
		return Edit(r, l.Edit), nil
	case l.Daily != nil:
		return Daily(r, *l.Daily), nil
	case l.Tournament != 0:
		return Standings(r, l.Tournament), nil
	case l.Final && l.GameID != 0:
		return FinalBoard(l.GameID, r), nil
	case l.Board && l.GameID != 0:
		return Board(l.GameID, r), nil
	}
	return Text(r), nil
}

// sendNew posts r as a new message with the row's nonce, so that Discord
// creates it at most once however often it is resent.
func sendNew(ctx context.Context, e Env, m Msg, r view.Reply) (string, error) {
	r.Nonce = m.Nonce
	return e.Post(ctx, m.Channel, r)
}

type textKind struct{}

func (textKind) Name() string { return "text" }
func (textKind) Final() bool  { return false }
func (textKind) Game() int64  { return 0 }
func (textKind) Deliver(ctx context.Context, e Env, m Msg, r view.Reply) (string, error) {
	return sendNew(ctx, e, m, r)
}

type boardKind struct {
	ID int64 `json:"game"`
}

func (boardKind) Name() string  { return "board" }
func (boardKind) Final() bool   { return false }
func (k boardKind) Game() int64 { return k.ID }
func (k boardKind) Deliver(ctx context.Context, e Env, m Msg, r view.Reply) (string, error) {
	e.RedrawBoard(ctx, k.ID, &r)
	return sendNew(ctx, e, m, r)
}

type finalKind struct {
	ID int64 `json:"game"`
}

func (finalKind) Name() string  { return "final" }
func (finalKind) Final() bool   { return true }
func (k finalKind) Game() int64 { return k.ID }
func (k finalKind) Deliver(ctx context.Context, e Env, m Msg, r view.Reply) (string, error) {
	e.FinalBoard(ctx, k.ID, &r)
	return sendNew(ctx, e, m, r)
}

type dailyKind struct {
	DailyRef
}

func (dailyKind) Name() string { return "daily" }
func (dailyKind) Final() bool  { return false }
func (dailyKind) Game() int64  { return 0 }
func (k dailyKind) Deliver(ctx context.Context, e Env, m Msg, r view.Reply) (string, error) {
	e.DrawDaily(&r, k.DailyRef)
	id, err := sendNew(ctx, e, m, r)
	if err == nil {
		e.DailyDelivered(ctx, k.DailyRef, id)
	}
	return id, err
}

type standingsKind struct {
	Tournament int64 `json:"tournament"`
}

func (standingsKind) Name() string { return "standings" }
func (standingsKind) Final() bool  { return false }
func (standingsKind) Game() int64  { return 0 }
func (k standingsKind) Deliver(ctx context.Context, e Env, m Msg, r view.Reply) (string, error) {
	e.RedrawStandings(ctx, &r, k.Tournament)
	return sendNew(ctx, e, m, r)
}

type editKind struct {
	Message string `json:"message"`
}

func (editKind) Name() string { return "edit" }
func (editKind) Final() bool  { return false }
func (editKind) Game() int64  { return 0 }

// Deliver edits: an edit lands the same however often it is repeated, so
// it needs no nonce.
func (k editKind) Deliver(ctx context.Context, e Env, m Msg, r view.Reply) (string, error) {
	return k.Message, e.Edit(ctx, m.Channel, k.Message, r)
}
