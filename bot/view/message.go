package view

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
