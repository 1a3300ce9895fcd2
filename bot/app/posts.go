package app

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/tankbot/tankbot/bot/view"
)

// The outbox's post kinds. A queued post is stored as its kind, the ids
// its kind reads at delivery and the message as worded when it was queued
// (without files: pictures are drawn at delivery):
//
//	{"kind":"final","ids":{"game":12},"reply":{...}}
//
// Each kind is a type with its own delivery (drawing what it attaches,
// recording what it sent); adding a kind is a type here and a line in
// postKinds, not a branch in the outbox.

// postKind is one kind of queued post, holding its ids.
type postKind interface {
	// deliver sends r, the post's message, for outbox row m and returns
	// the id of the message it became.
	deliver(ctx context.Context, b *Bot, m outMsg, r view.Reply) (string, error)
	// final reports whether the post is a game's final board, which a
	// game over does not make needless.
	final() bool
	// name is the kind as stored (a key of postKinds).
	name() string
}

// postKinds names every kind as stored.
var postKinds = map[string]func() postKind{
	"text":      func() postKind { return &textKind{} },
	"board":     func() postKind { return &boardKind{} },
	"final":     func() postKind { return &finalKind{} },
	"daily":     func() postKind { return &dailyKind{} },
	"standings": func() postKind { return &standingsKind{} },
	"edit":      func() postKind { return &editKind{} },
}

// outPost is a message to queue and its kind.
type OutPost struct {
	kind  postKind
	reply view.Reply
}

// textPost is a message that goes as worded.
func textPost(r view.Reply) OutPost { return OutPost{&textKind{}, r} }

// boardPost is a game's board, its picture drawn at delivery from the
// game as it stands.
func boardPost(r view.Reply) OutPost { return OutPost{&boardKind{Game: r.GameID}, r} }

// finalBoardPost is a game's final board: picture, rating lines, record
// and replay added at delivery from the committed game.
func finalBoardPost(r view.Reply) OutPost { return OutPost{&finalKind{Game: r.GameID}, r} }

// dailyPuzzlePost is a server's daily puzzle; its delivery is recorded.
func dailyPuzzlePost(r view.Reply, d view.DailyRef) OutPost { return OutPost{&dailyKind{d}, r} }

// standingsPost is a tournament's final standings, pictures drawn at
// delivery.
func standingsPost(r view.Reply, tournament int64) OutPost {
	return OutPost{&standingsKind{Tournament: tournament}, r}
}

// editPost changes message messageID of r.ChannelID (components replaced,
// content when set) instead of posting anew; it notifies nobody.
func editPost(r view.Reply, messageID string) OutPost {
	return OutPost{&editKind{Message: messageID}, r}
}

// queuedAs is r queued as what it shows: a game's board or a text.
func queuedAs(r view.Reply) OutPost {
	if r.Board && r.GameID != 0 {
		return boardPost(r)
	}
	return textPost(r)
}

// storedPost is a post's stored form.
type storedPost struct {
	Kind  string          `json:"kind"`
	IDs   json.RawMessage `json:"ids,omitempty"`
	Reply view.Reply      `json:"reply"`
}

// encodePost is p as an outbox payload.
func encodePost(p OutPost) (string, error) {
	r := p.reply
	r.Files = nil
	ids, err := json.Marshal(p.kind)
	if err != nil {
		return "", fmt.Errorf("queued post: %w", err)
	}
	body, err := json.Marshal(storedPost{Kind: p.kind.name(), IDs: ids, Reply: r})
	if err != nil {
		return "", fmt.Errorf("queued post: %w", err)
	}
	return string(body), nil
}

// decodePost reads an outbox payload: the stored form above, or the form
// written before post kinds (a whole Reply with its markers, by 441ce77
// and earlier), which still sits in old databases' outboxes.
func decodePost(payload string) (OutPost, error) {
	var s struct {
		Kind *string         `json:"kind"`
		IDs  json.RawMessage `json:"ids"`
		// Reply is read below: json.RawMessage keeps it lazy.
		Reply json.RawMessage `json:"reply"`
	}
	if err := json.Unmarshal([]byte(payload), &s); err != nil {
		return OutPost{}, err
	}
	if s.Kind == nil {
		return decodeLegacyPost(payload)
	}
	mk, ok := postKinds[*s.Kind]
	if !ok {
		return OutPost{}, fmt.Errorf("unknown post kind %q", *s.Kind)
	}
	p := OutPost{kind: mk()}
	if len(s.IDs) > 0 {
		if err := json.Unmarshal(s.IDs, p.kind); err != nil {
			return OutPost{}, fmt.Errorf("post kind %s: %w", *s.Kind, err)
		}
	}
	if err := json.Unmarshal(s.Reply, &p.reply); err != nil {
		return OutPost{}, fmt.Errorf("post kind %s: %w", *s.Kind, err)
	}
	return p, nil
}

// legacyReply is the outbox payload before post kinds: a Reply with the
// markers that said how to draw it.
type legacyReply struct {
	view.Reply
	Edit       string         `json:",omitempty"`
	Daily      *view.DailyRef `json:",omitempty"`
	Tournament int64          `json:",omitempty"`
	Final      bool           `json:",omitempty"`
}

func decodeLegacyPost(payload string) (OutPost, error) {
	var l legacyReply
	if err := json.Unmarshal([]byte(payload), &l); err != nil {
		return OutPost{}, err
	}
	r := l.Reply
	switch {
	case l.Edit != "":
		return editPost(r, l.Edit), nil
	case l.Daily != nil:
		return dailyPuzzlePost(r, *l.Daily), nil
	case l.Tournament != 0:
		return standingsPost(r, l.Tournament), nil
	case l.Final && r.GameID != 0:
		return finalBoardPost(r), nil
	}
	return queuedAs(r), nil
}

// sendNew posts r as a new message with the row's nonce, so that Discord
// creates it at most once however often it is resent.
func sendNew(ctx context.Context, b *Bot, m outMsg, r view.Reply) (string, error) {
	r.Nonce = m.Nonce
	return b.n.Post(ctx, m.Channel, r)
}

type textKind struct{}

func (textKind) name() string { return "text" }
func (textKind) final() bool  { return false }
func (textKind) deliver(ctx context.Context, b *Bot, m outMsg, r view.Reply) (string, error) {
	return sendNew(ctx, b, m, r)
}

type boardKind struct {
	Game int64 `json:"game"`
}

func (boardKind) name() string { return "board" }
func (boardKind) final() bool  { return false }
func (k boardKind) deliver(ctx context.Context, b *Bot, m outMsg, r view.Reply) (string, error) {
	if r.Embed != nil && r.Embed.Image != "" {
		if g, ok := b.queuedGame(ctx, k.Game, &r); ok {
			b.redrawImage(ctx, &r, g)
		}
	}
	return sendNew(ctx, b, m, r)
}

type finalKind struct {
	Game int64 `json:"game"`
}

func (finalKind) name() string { return "final" }
func (finalKind) final() bool  { return true }
func (k finalKind) deliver(ctx context.Context, b *Bot, m outMsg, r view.Reply) (string, error) {
	if g, ok := b.queuedGame(ctx, k.Game, &r); ok {
		if r.Embed != nil && r.Embed.Image != "" {
			b.redrawImage(ctx, &r, g)
		}
		b.finalExtras(ctx, b.outLocale(g), g, &r)
	}
	return sendNew(ctx, b, m, r)
}

type dailyKind struct {
	view.DailyRef
}

func (dailyKind) name() string { return "daily" }
func (dailyKind) final() bool  { return false }
func (k dailyKind) deliver(ctx context.Context, b *Bot, m outMsg, r view.Reply) (string, error) {
	b.drawDaily(&r, k.DailyRef)
	id, err := sendNew(ctx, b, m, r)
	if err == nil {
		b.dailyDelivered(ctx, k.DailyRef, id)
	}
	return id, err
}

type standingsKind struct {
	Tournament int64 `json:"tournament"`
}

func (standingsKind) name() string { return "standings" }
func (standingsKind) final() bool  { return false }
func (k standingsKind) deliver(ctx context.Context, b *Bot, m outMsg, r view.Reply) (string, error) {
	b.redrawStandings(ctx, &r, k.Tournament)
	return sendNew(ctx, b, m, r)
}

type editKind struct {
	Message string `json:"message"`
}

func (editKind) name() string { return "edit" }
func (editKind) final() bool  { return false }

// deliver edits: an edit lands the same however often it is repeated, so
// it needs no nonce.
func (k editKind) deliver(ctx context.Context, b *Bot, m outMsg, r view.Reply) (string, error) {
	return k.Message, b.n.Edit(ctx, m.Channel, k.Message, r)
}
