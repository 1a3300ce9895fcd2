package bot

import (
	"context"

	"github.com/tankbot/tankbot/bot/app"
	"github.com/tankbot/tankbot/bot/view"
)

// The contract between the handlers and the transports that drive them
// (see bot/app/transport.go for the full story of each type).
type (
	User          = app.User
	Kind          = app.Kind
	Command       = app.Command
	ChannelInfo   = app.ChannelInfo
	Reply         = view.Reply
	Embed         = view.Embed
	Field         = view.Field
	File          = view.File
	ComponentKind = view.ComponentKind
	Style         = view.Style
	Component     = view.Component
	Option        = view.Option
	Modal         = view.Modal
	Input         = view.Input
	Choice        = view.Choice
	Recorder      = view.Recorder
	Hook          = view.Hook
	Shown         = view.Shown
	Notifier      = app.Notifier
	ThreadRenamer = app.ThreadRenamer

	TokenPoster     = app.TokenPoster
	DMOpener        = app.DMOpener
	BoardStripper   = app.BoardStripper
	WebhookStripper = app.WebhookStripper
	RateLimited     = app.RateLimited

	CommandSpec = app.CommandSpec
	OptionSpec  = app.OptionSpec
	OptionType  = app.OptionType
	Bounds      = app.Bounds

	Interim = app.Interim

	SubcommandSpec = app.SubcommandSpec
)

const (
	KindSlash     = app.KindSlash
	KindComponent = app.KindComponent
	KindModal     = app.KindModal

	Button = view.Button
	Select = view.Select

	Primary   = view.Primary
	Secondary = view.Secondary
	Success   = view.Success
	Danger    = view.Danger
	Link      = view.Link

	String        = app.String
	UserOption    = app.UserOption
	Bool          = app.Bool
	Integer       = app.Integer
	ChannelOption = app.ChannelOption
	RoleOption    = app.RoleOption

	// SubcommandOption is the option in which a transport passes the
	// chosen subcommand's name.
	SubcommandOption = app.SubcommandOption
)

var (
	ErrNoThreads   = app.ErrNoThreads
	ErrMessageGone = app.ErrMessageGone
	ErrNotMember   = app.ErrNotMember
)

// WithInterim gives the handlers a way to show progress before their
// answer (a long review).
func WithInterim(ctx context.Context, f Interim) context.Context { return app.WithInterim(ctx, f) }
