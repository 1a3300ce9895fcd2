package app

import (
	"context"
	"errors"
	"time"

	"github.com/tankbot/tankbot/bot/game"
	"github.com/tankbot/tankbot/bot/view"
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

// Notifier is implemented by a transport for everything that is not an
// answer to an interaction: flag-falls, reminders, expiries and turn pings
// after Discord's 15-minute interaction window, and the game's own thread.
type Notifier interface {
	// Post sends r as a new message in channelID and returns its id.
	Post(ctx context.Context, channelID string, r view.Reply) (messageID string, err error)
	// CreateThread opens a public thread under channelID (on the message
	// messageID when set) and returns its id. A transport that cannot
	// returns ErrNoThreads (wrapped) and the game is played in the channel.
	CreateThread(ctx context.Context, channelID, messageID, name string) (threadID string, err error)
	// Edit changes the message messageID in channelID. Its components
	// become r.Components (none when empty: an old board loses its
	// buttons); its content and embed are replaced only when r.Content or
	// r.Embed is set, and its attachments only when r.Files is. Edits never
	// notify anybody.
	Edit(ctx context.Context, channelID, messageID string, r view.Reply) error
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
	PostVia(ctx context.Context, token string, issued time.Time, r view.Reply) (messageID string, err error)
}

// DMOpener is implemented by transports that can open the bot's DM with
// a user (for the notices a player asked for there).
type DMOpener interface {
	OpenDM(ctx context.Context, user string) (channelID string, err error)
}

// ErrNoThreads is returned (wrapped) by Notifier.CreateThread when the bot
// may not create threads in that channel.
var ErrNoThreads = errors.New("cannot create threads here")
