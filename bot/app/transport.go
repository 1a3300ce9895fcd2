package app

import (
	"context"
	"errors"
	"time"

	"github.com/tankbot/tankbot/bot/game"
)

// This file is the contract between the transport-free handlers and the
// transports that drive them (the Discord adapter, the console, tests). A
// transport turns what a user did into a Command, hands it to Bot.Handle (or
// Bot.Suggest for autocomplete) and sends the Replies back; out-of-band posts
// (flag-falls, reminders, expiries) go through the transport's Notifier.

// User is a person (or a bot account) as the transport knows them.
type User = game.Player

// Kind says what sort of interaction a Command comes from.
type Kind int

const (
	// KindSlash is a slash command (/move e2 > e5n) or a console line.
	KindSlash Kind = iota
	// KindComponent is a click on a button or a choice in a select menu.
	KindComponent
	// KindModal is a submitted form (the "type a move" modal).
	KindModal
)

// Command is one thing a user did, free of any transport.
type Command struct {
	Kind Kind
	// Name is the slash command without its slash ("challenge", "move", ...).
	// For components and modals it is empty and CustomID says what was clicked.
	Name string
	// Options are the slash command's options by name, as text; a user
	// option holds the user's id and its details are in Users.
	Options map[string]string
	// Users holds the users named in options, by id.
	Users map[string]User
	// Channels holds the channels named in options, by id (Discord's
	// resolved data).
	Channels map[string]ChannelInfo
	// CustomID is the component's or modal's custom id (1-100 characters),
	// e.g. "g:42:17:resign" or "c:7:accept".
	CustomID string
	// Values are a select menu's chosen values, or a modal's fields in order.
	Values []string

	User      User
	GuildID   string
	ChannelID string // the channel, or the thread when used inside a thread
	ThreadID  string // set (equal to ChannelID) when used inside a thread
	ParentID  string // the thread's parent channel, when ThreadID is set
	MessageID string // for components: the message the component is on
	Locale    string // the user's Discord locale ("en-US", "th", "pt-BR")
	// GuildLocale is the server's preferred locale (Discord's guild_locale),
	// the language of public messages; "" outside a server or when unknown.
	GuildLocale string
	// ManageServer: the member has the Manage Server permission here (from
	// the interaction's member permissions); tournament organiser rights.
	ManageServer bool
	// Roles are the member's role ids here (from the interaction).
	Roles []string
	// BotAbsent: the app is here only through a user's own install (a DM
	// between users, a group DM, a server that did not add the bot).
	// The bot user is not a member, so the platform refuses its own posts
	// and edits here: everything goes through the interactions
	// (docs/discord.md, "Playing anywhere"). False for the console.
	BotAbsent bool
	// BotDM: the command comes from the user's DM with the bot (ChannelID
	// is that DM).
	BotDM bool
}

// ChannelInfo is a channel named in an option.
type ChannelInfo struct {
	ID, Name string
	// Text: a server's text or announcement channel, where the bot posts
	// (not a voice channel, category, forum or thread).
	Text bool
}

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
	// GameID and Board mark the reply that carries a game's board, and
	// ChallengeID the one that carries a challenge's buttons: the
	// transport records the id of the message each becomes
	// (SetBoardMessage, SetChallengeMessage), so that it can be edited
	// later (see Tracked).
	GameID      int64
	Board       bool
	ChallengeID int64 `json:",omitempty"`
	// Seq, on the board a move produced, is the game sequence the move
	// reached. The move queued that board as a fallback ping (due a
	// little later); recording the board (SetBoardMessage, Bot.Delivered)
	// with its Seq cancels the ping, so it goes out only when the answer
	// never reached Discord.
	Seq int `json:",omitempty"`
	// Position is the encoded position a Board reply shows and Game its
	// game's name, for transports that draw text (the console).
	Position string
	Game     string
	// Nonce, when set (posts from the outbox), is sent as the message's
	// nonce with enforce_nonce, so Discord creates it at most once however
	// often it is resent after a crash.
	Nonce string `json:",omitempty"`
}

// DailyRef names a server's daily puzzle post (the ids of its post kind,
// posts.go).
type DailyRef struct {
	Guild, Day, Game, Puzzle, Locale string
}

// Tracked reports whether the transport must record the id of the message
// r becomes: a public board of a game or a challenge.
func (r Reply) Tracked() bool {
	return !r.Ephemeral && (r.Board && r.GameID != 0 || r.ChallengeID != 0)
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

// Notifier is implemented by a transport for everything that is not an
// answer to an interaction: flag-falls, reminders, expiries and turn pings
// after Discord's 15-minute interaction window, and the game's own thread.
type Notifier interface {
	// Post sends r as a new message in channelID and returns its id.
	Post(ctx context.Context, channelID string, r Reply) (messageID string, err error)
	// CreateThread opens a public thread under channelID (on the message
	// messageID when set) and returns its id. A transport that cannot
	// returns ErrNoThreads (wrapped) and the game is played in the channel.
	CreateThread(ctx context.Context, channelID, messageID, name string) (threadID string, err error)
	// Edit changes the message messageID in channelID. Its components
	// become r.Components (none when empty: an old board loses its
	// buttons); its content and embed are replaced only when r.Content or
	// r.Embed is set, and its attachments only when r.Files is. Edits never
	// notify anybody.
	Edit(ctx context.Context, channelID, messageID string, r Reply) error
}

// ThreadRenamer is implemented by Notifiers that can rename a thread the
// bot created (the game's thread, when the game's number turned out other
// than the one its name was given).
type ThreadRenamer interface {
	RenameThread(ctx context.Context, threadID, name string) error
}

// Clock is the time source; tests inject a fake one so they never sleep.
type Clock interface {
	Now() time.Time
}

// ErrNotMember is returned (wrapped) by a Notifier whose post or edit the
// platform refused because the bot is not a member there (Discord's
// Missing Access where the app is only user-installed, or a user it may
// not DM). Such a post is held for the next interaction, not retried.
var ErrNotMember = errors.New("the bot is not a member there")

// TokenPoster is implemented by transports that can post as a follow-up
// of an earlier interaction while its token lives: where the bot may not
// post by itself, a post due within that time (the computer's move)
// reaches the conversation that way. token is the interaction's, issued
// when it was created (a board's store.BoardHook); the message is
// recorded as a board reachable through that token.
type TokenPoster interface {
	PostVia(ctx context.Context, token string, issued time.Time, r Reply) (messageID string, err error)
}

// DMOpener is implemented by transports that can open the bot's DM with
// a user (for the notices a player asked for there).
type DMOpener interface {
	OpenDM(ctx context.Context, user string) (channelID string, err error)
}

// ErrNoThreads is returned (wrapped) by Notifier.CreateThread when the bot
// may not create threads in that channel.
var ErrNoThreads = errors.New("cannot create threads here")
