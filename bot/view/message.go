package view

import (
	"context"
	"time"
)

// Reply is one message the transport sends back.
type Reply struct {
	// Ephemeral replies are seen only by the user who acted (errors and
	// refusals always are).
	Ephemeral bool
	// Update asks the transport to edit the message the component is on
	// instead of sending a new one.
	Update  bool
	Content string
	Embed   *Embed
	Files   []File
	// FallbackText (from the catalog) is added to Content when the
	// transport has to send the reply again without its Files because the
	// upload was refused (too large), so the reader learns why no image.
	FallbackText string
	// Components are rows of buttons or one select menu per row (Discord
	// allows 5 rows, 5 buttons a row, 25 options a menu).
	Components [][]Component
	// Mentions are the user ids this message may ping; nobody else is
	// pinged whatever the content says.
	Mentions []string
	// ChannelID, when set, sends the reply as a new message in that channel
	// rather than as the interaction's response (used for turn pings and for
	// the first board of a game in its new thread).
	ChannelID string
	// Modal, when set, opens a form instead of sending a message.
	Modal *Modal
	// Sent, when set, is told which message the reply became (and, for
	// an interaction's answer, that it is about to be sent), so that the
	// message can be edited later: a game's board, a challenge. Every
	// transport calls it through RecordPending and RecordSent; it is not
	// stored (a queued post's kind sets it again at delivery).
	Sent Recorder `json:"-"`
	// Shows is the position the reply's picture draws, for transports
	// that draw text instead of pictures (the console).
	Shows *Shown `json:",omitempty"`
	// Nonce, when set (posts from the outbox), is sent as the message's
	// nonce with enforce_nonce, so Discord creates it at most once however
	// often it is resent after a crash.
	Nonce string `json:",omitempty"`
}

// Tracked reports whether the transport must tell r.Sent the message r
// becomes: r is public and something wants to know.
func (r Reply) Tracked() bool {
	return r.Sent != nil && !r.Ephemeral
}

// RecordPending tells r's recorder that r is about to be sent as an
// interaction's answer through webhook via (before its message id is known).
func (r Reply) RecordPending(ctx context.Context, via Hook) {
	if r.Tracked() {
		r.Sent.Pending(ctx, r, via)
	}
}

// RecordSent tells r's recorder that r became message messageID of
// channelID ("" for a transport without message ids, like the console),
// made through interaction webhook via (zero: the bot's token).
func (r Reply) RecordSent(ctx context.Context, channelID, messageID string, via Hook) {
	if r.Tracked() {
		r.Sent.Sent(ctx, r, channelID, messageID, via)
	}
}

// Recorder is what wants to know the message a reply became. Failures are
// its own to log: the change the reply announces is saved either way; only
// the link to its message is lost.
type Recorder interface {
	Pending(ctx context.Context, r Reply, via Hook)
	Sent(ctx context.Context, r Reply, channelID, messageID string, via Hook)
}

// Hook is the interaction webhook a message was made through, which can
// edit it while its token lives (15 minutes from Issued), off the bot
// token's global rate limit.
type Hook struct {
	Token, Message string
	Issued         time.Time
}

// Shown is a position as the reply's picture draws it: its game's name
// and the position in that game's encoding (TFEN, CFEN, GFEN).
type Shown struct {
	Game, Position string
}

// Embed is a rich message block.
type Embed struct {
	Title       string
	Description string
	Fields      []Field
	Color       int
	Image       string // name of an attached File to show ("board.png")
	Footer      string
}

// Field is one name/value pair of an embed.
type Field struct {
	Name, Value string
	Inline      bool
}

// File is an attachment.
type File struct {
	Name        string
	ContentType string
	Data        []byte
	// Description is the attachment's alt text, which screen readers read
	// aloud (Discord's attachment description, at most 1,024 characters):
	// every image carries one, in the language of the message it goes with.
	Description string `json:",omitempty"`
}

// ComponentKind distinguishes buttons from select menus.
type ComponentKind int

const (
	Button ComponentKind = iota
	Select
)

// Style of a button.
type Style int

const (
	Primary Style = iota
	Secondary
	Success
	Danger
	// Link buttons open URL in the browser; no interaction comes back.
	Link
)

// Component is a button or a select menu.
type Component struct {
	Kind        ComponentKind
	CustomID    string
	Label       string // button label or menu placeholder
	Style       Style
	Disabled    bool
	Options     []Option // select menu options (at most 25)
	Placeholder string
	URL         string // a Link button's address (no CustomID)
}

// Option is one choice of a select menu.
type Option struct {
	Label, Value, Description string
}

// Modal is a form with text inputs.
type Modal struct {
	CustomID string
	Title    string
	Inputs   []Input
}

// Input is one text field of a modal.
type Input struct {
	CustomID    string
	Label       string
	Placeholder string
	Required    bool
}

// Choice is one autocomplete suggestion: Name is shown, Value is inserted.
type Choice struct {
	Name, Value string
	// NameLocalizations are Name in the other languages, by Discord
	// locale, for the fixed choices of a registered option.
	NameLocalizations map[string]string `json:",omitempty"`
}
