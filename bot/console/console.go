// Package console drives the bot's handlers from text lines, so every flow
// can be tried without Discord:
//
//	alice: /challenge bob game:tank map:basic20 clock:10m+5s
//	bob: /accept
//	alice: /move c3 > c5n
//	bob: click g:1:1:resign
//	bob: submit g:1:1:type c3 > c5n
//	alice: /puzzle game:camelot
//	wait 10m        (advance the clock, then run the scheduler)
//	tick            (run the scheduler)
//
// Against the computer (VsAI), and once a /tournament command was given,
// the scheduler runs after every line, so the computer's move follows
// yours and a tournament's next round follows the last game of the one
// before.
//
// In hot-seat mode a line without "name:" is a move by the player to move;
// in puzzle mode (Puzzles) it is an answer to the puzzle, or hint, stats,
// next.
package console

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/tankbot/tankbot/bot"
)

// Console is a text transport: it turns lines into Commands and prints the
// Replies. It is also the bot's Notifier.
type Console struct {
	Bot   *bot.Bot
	Out   io.Writer
	Clock *Clock
	// PNGDir is where the console writes board images (printed as
	// paths). It should be private to the user (see PrivateDir): files
	// are created afresh and renamed into place, never written through an
	// existing name or link.
	PNGDir  string
	Guild   string
	Channel string
	Locale  string
	// Threads makes CreateThread succeed (else it reports ErrNoThreads).
	Threads bool
	// AutoTick runs the scheduler after every command and waits for the
	// computer's searches, so its move follows yours (games against the
	// bot).
	AutoTick bool

	mu      sync.Mutex
	next    string // the user the last turn ping mentioned (hot seat)
	threads int
	puzzle  string // the game of puzzle mode (Puzzles); "" otherwise
	text    textMode
	keyed   map[string]bool // games whose text board legend was printed
}

// Clock is a settable time source: real time (or a fixed start) plus
// whatever "wait" added.
type Clock struct {
	mu    sync.Mutex
	start time.Time // zero: wall clock
	off   time.Duration
}

// NewClock returns a clock at start; a zero start follows the wall clock.
func NewClock(start time.Time) *Clock { return &Clock{start: start} }

// Now is the current time.
func (c *Clock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.start.IsZero() {
		return time.Now().Add(c.off)
	}
	return c.start.Add(c.off)
}

// Advance moves the clock forward.
func (c *Clock) Advance(d time.Duration) {
	c.mu.Lock()
	c.off += d
	c.mu.Unlock()
}

// Post prints an out-of-band message (flag-falls, reminders, expiries).
func (c *Console) Post(_ context.Context, channelID string, r bot.Reply) (string, error) {
	c.print("#"+channelID, r)
	return "", nil
}

// Edit prints an edit of an earlier message: what it now says, or that its
// buttons are gone.
func (c *Console) Edit(_ context.Context, channelID, messageID string, r bot.Reply) error {
	if r.Content == "" && r.Embed == nil && len(r.Files) == 0 && len(r.Components) == 0 {
		fmt.Fprintf(c.Out, "(#%s message %s: buttons removed)\n", channelID, messageID)
		return nil
	}
	c.print("(#"+channelID+" message "+messageID+" edited)", r)
	return nil
}

// CreateThread opens a pretend thread, or refuses like a channel where the
// bot may not create threads.
func (c *Console) CreateThread(_ context.Context, channelID, _, name string) (string, error) {
	if !c.Threads {
		return "", fmt.Errorf("console: %w", bot.ErrNoThreads)
	}
	c.mu.Lock()
	c.threads++
	id := fmt.Sprintf("%s-thread%d", channelID, c.threads)
	c.mu.Unlock()
	fmt.Fprintf(c.Out, "(thread %s opened: %s)\n", id, name)
	return id, nil
}

// Run executes lines until EOF or "quit". Errors in a line are printed and
// the loop goes on; only a write failure stops it.
func (c *Console) Run(ctx context.Context, in io.Reader) error {
	sc := bufio.NewScanner(in)
	sc.Buffer(make([]byte, 64*1024), 1024*1024)
	for sc.Scan() {
		if ctx.Err() != nil {
			return ctx.Err()
		}
		line := strings.TrimSpace(sc.Text())
		if line == "quit" || line == "exit" {
			return nil
		}
		if err := c.Exec(ctx, line); err != nil {
			fmt.Fprintln(c.Out, "error:", err)
		}
	}
	return sc.Err()
}

// Exec runs one line.
func (c *Console) Exec(ctx context.Context, line string) error {
	line = strings.TrimSpace(line)
	if line == "" || strings.HasPrefix(line, "#") {
		return nil
	}
	switch f := strings.Fields(line); f[0] {
	case "wait":
		if len(f) != 2 {
			return fmt.Errorf("usage: wait <duration>, e.g. wait 10m")
		}
		d, err := time.ParseDuration(f[1])
		if err != nil || d < 0 {
			return fmt.Errorf("bad duration %q", f[1])
		}
		c.Clock.Advance(d)
		return c.Bot.Tick(ctx)
	case "tick":
		return c.Bot.Tick(ctx)
	}
	if handled, err := c.textCommand(line); handled {
		return err
	}
	who, rest, ok := splitSpeaker(line)
	if !ok {
		c.mu.Lock()
		who = c.next
		c.mu.Unlock()
		if who == "" {
			return fmt.Errorf("say who acts: \"alice: /board\", \"alice: /move <move>\"")
		}
		rest = line
		if !strings.HasPrefix(rest, "/") && !strings.HasPrefix(rest, "click ") && !strings.HasPrefix(rest, "submit ") {
			rest = c.bare(rest)
		}
	}
	cmd, err := c.parse(who, rest)
	if err != nil {
		return err
	}
	if cmd.Name == "tournament" {
		// A tournament runs itself: its next rounds, final standings and
		// computer entrants' moves come from the scheduler, which then
		// runs after every line.
		c.AutoTick = true
	}
	for _, r := range c.Bot.Handle(ctx, cmd) {
		where := ""
		if r.ChannelID != "" {
			where = "#" + r.ChannelID
		}
		if r.Ephemeral {
			where = "(only " + who + ")"
		}
		c.print(where, r)
		// Printed is delivered: the board's fallback ping is cancelled
		// (the console has no message ids to record).
		r.RecordSent(ctx, r.ChannelID, "", bot.Hook{})
	}
	if c.AutoTick {
		return c.settle(ctx)
	}
	return nil
}

// settle runs the scheduler until a pass starts no search, waiting for
// each search to save its move: the computer may move several times in a
// row (the Gungi draft once the human is ready), and every pass delivers
// the boards queued so far.
func (c *Console) settle(ctx context.Context) error {
	for {
		before := c.Bot.AISearches()
		if err := c.Bot.Tick(ctx); err != nil {
			return err
		}
		if c.Bot.AISearches() == before {
			return nil
		}
		c.Bot.WaitAI()
	}
}

// SelfID is the console's name for the bot's own user: the computer
// opponent plays as it.
const SelfID = "tankbot"

// VsAI starts a local game of "you" against the computer at level, on a
// map, with a clock and your colour (white, black, random), and makes
// bare lines your moves. The Bot must have been built with
// Config.SelfID = SelfID; AutoTick is switched on.
func (c *Console) VsAI(ctx context.Context, level int, game, startPos, clock, color string) error {
	c.AutoTick = true
	line := fmt.Sprintf("you: /challenge level:%d color:%s thread:false game:%s clock:%s", level, color, game, clock)
	if startPos != "" {
		line += " map:" + startPos
	}
	if err := c.Exec(ctx, line); err != nil {
		return err
	}
	c.mu.Lock()
	c.next = "you"
	c.mu.Unlock()
	return nil
}

// Puzzles starts puzzle mode for "you" in game: a puzzle near your puzzle
// rating (kept in the bot's store, so a --db file keeps it), the board as
// for a game. Bare lines are answers; "hint", "stats" and "next" (another
// puzzle) stand for the /puzzle options.
func (c *Console) Puzzles(ctx context.Context, game string) error {
	c.mu.Lock()
	c.puzzle, c.next = game, "you"
	c.mu.Unlock()
	return c.Exec(ctx, "you: /puzzle game:"+game)
}

// bare is the command a line without a speaker, command or click stands
// for: a move, or in puzzle mode an answer or a puzzle word.
func (c *Console) bare(line string) string {
	c.mu.Lock()
	game := c.puzzle
	c.mu.Unlock()
	if game == "" {
		return "/move " + line
	}
	switch strings.ToLower(line) {
	case "hint":
		return "/puzzle hint:true"
	case "stats":
		return "/puzzle stats:true"
	case "next":
		return "/puzzle game:" + game
	}
	return "/puzzle move:" + line
}

// SetTurn makes bare lines moves of user (a game resumed from the
// database; later boards say whose turn it is).
func (c *Console) SetTurn(user string) {
	c.mu.Lock()
	c.next = user
	c.mu.Unlock()
}

// splitSpeaker splits "alice: rest" into its parts.
func splitSpeaker(line string) (who, rest string, ok bool) {
	i := strings.Index(line, ":")
	if i <= 0 || strings.ContainsAny(line[:i], " /") {
		return "", "", false
	}
	return strings.TrimSpace(line[:i]), strings.TrimSpace(line[i+1:]), true
}

// positional names the option a command's bare words fill.
var positional = map[string]string{
	"challenge": "opponent", "move": "move", "accept": "challenge", "history": "game",
	"rules": "game", "resign": "game", "draw": "game", "takeback": "game", "abort": "game",
	"rematch": "game", "board": "game", "settings": "language", "tournament": "action",
}

// userOptions are the options that name a user.
var userOptions = map[string]bool{"opponent": true}

func (c *Console) parse(who, rest string) (bot.Command, error) {
	u := bot.User{ID: who, Name: who}
	cmd := bot.Command{User: u, GuildID: c.Guild, ChannelID: c.Channel, Locale: c.Locale,
		Options: map[string]string{}, Users: map[string]bot.User{}}
	f := strings.Fields(rest)
	switch {
	case f[0] == "click" || f[0] == "submit":
		if len(f) < 2 {
			return cmd, fmt.Errorf("usage: %s <custom-id> [value]", f[0])
		}
		cmd.Kind = bot.KindComponent
		if f[0] == "submit" {
			cmd.Kind = bot.KindModal
		}
		cmd.CustomID = f[1]
		if len(f) > 2 {
			cmd.Values = []string{strings.Join(f[2:], " ")}
		}
		return cmd, nil
	case strings.HasPrefix(f[0], "/"):
		cmd.Name = strings.ToLower(strings.TrimPrefix(f[0], "/"))
	default:
		return cmd, fmt.Errorf("a command starts with / (or is click/submit): %q", rest)
	}
	key, bare := "", []string{}
	for _, tok := range f[1:] {
		if k, v, ok := strings.Cut(tok, ":"); ok && isKey(k) {
			key = strings.ToLower(k)
			cmd.Options[key] = v
			continue
		}
		if key != "" {
			cmd.Options[key] += " " + tok
			continue
		}
		bare = append(bare, tok)
	}
	if len(bare) > 0 {
		name, ok := positional[cmd.Name]
		if !ok {
			return cmd, fmt.Errorf("/%s takes no bare words: %q", cmd.Name, strings.Join(bare, " "))
		}
		cmd.Options[name] = strings.Join(bare, " ")
	}
	for k, v := range cmd.Options {
		v = strings.TrimSpace(v)
		cmd.Options[k] = v
		if userOptions[k] {
			cmd.Users[v] = bot.User{ID: v, Name: v, Bot: strings.HasSuffix(strings.ToLower(v), "bot")}
		}
	}
	return cmd, nil
}

func isKey(k string) bool {
	if k == "" || len(k) > 12 {
		return false
	}
	for _, r := range k {
		if r < 'a' || r > 'z' {
			return false
		}
	}
	return true
}

// print writes one reply: where it goes, text, embed, board, files and
// buttons with their custom ids (to click).
func (c *Console) print(where string, r bot.Reply) {
	r = r.WithText(bot.PlainText, bot.PlainText) // names as typed
	var sb strings.Builder
	if where != "" {
		sb.WriteString(where + " ")
	}
	if r.Content != "" {
		sb.WriteString(c.readable(r.Content) + "\n")
	}
	if e := r.Embed; e != nil {
		sb.WriteString("== " + c.readable(e.Title) + " ==\n")
		if e.Description != "" {
			sb.WriteString(c.readable(e.Description) + "\n")
		}
		for _, f := range e.Fields {
			sb.WriteString(c.readable(f.Name) + ": " + c.readable(f.Value) + "\n")
		}
		if e.Footer != "" {
			sb.WriteString(c.readable(e.Footer) + "\n")
		}
	}
	if s := r.Shows; s != nil {
		sb.WriteString(c.boardText(s.Game, s.Position))
		// The key under a game's first text board: once is enough to learn
		// it. The words of text mode need none.
		c.mu.Lock()
		if !c.text.on && !c.keyed[s.Game] {
			sb.WriteString(Legend(s.Game))
			if c.keyed == nil {
				c.keyed = map[string]bool{}
			}
			c.keyed[s.Game] = true
		}
		c.mu.Unlock()
	}
	for _, f := range r.Files {
		if c.PNGDir != "" && (strings.HasSuffix(f.Name, ".png") || strings.HasSuffix(f.Name, ".gif")) {
			path, err := writeFile(c.PNGDir, f.Name, f.Data)
			if err != nil {
				sb.WriteString("image not written: " + err.Error() + "\n")
			} else {
				sb.WriteString("image: " + path + "\n")
			}
		} else {
			sb.WriteString(fmt.Sprintf("file: %s (%d bytes)\n", f.Name, len(f.Data)))
			if strings.HasPrefix(f.ContentType, "text/") {
				sb.Write(f.Data)
			}
		}
	}
	for _, row := range r.Components {
		for _, comp := range row {
			if comp.Kind == bot.Select {
				sb.WriteString("[menu " + comp.Placeholder + "] " + comp.CustomID + ":")
				for _, o := range comp.Options {
					sb.WriteString(" " + o.Value)
				}
				sb.WriteString("\n")
				continue
			}
			sb.WriteString("[" + comp.Label + "] " + comp.CustomID + comp.URL + "  ")
		}
		sb.WriteString("\n")
	}
	if r.Modal != nil {
		sb.WriteString("(form " + r.Modal.Title + ": submit " + r.Modal.CustomID + " <text>)\n")
	}
	// The player a board (or a reminder) pings first is the one to move.
	if len(r.Mentions) > 0 && r.Shows != nil || len(r.Mentions) == 1 && r.ChannelID != "" && r.Embed == nil {
		c.mu.Lock()
		c.next = r.Mentions[0]
		c.mu.Unlock()
	}
	fmt.Fprint(c.Out, sb.String())
}

// markup is what Discord draws instead of showing it: user, role and
// channel mentions and timestamps.
var markup = regexp.MustCompile(`<@[!&]?([^<>\s]+)>|<#([^<>\s]+)>|<t:(-?\d{1,12})(?::([tTdDfFR]))?>`)

// markdown is a markdown escape (names are escaped so that they cannot
// format), which Discord shows as the character alone, or a bold,
// underline, strike-through or code marker, which Discord draws as a
// style and never shows. One pass, so that an escaped "\*" stays a
// star. Single "*" and "_" stay: notation uses them (Gungi's "P*e5").
var markdown = regexp.MustCompile("\\\\([\\\\*_~|>()\\[\\]#<@:.`-])|\\*\\*|__|~~|`")

// readable shows Discord markup as Discord would: markdown escapes as the
// character alone, a mention as @name (the console's user ids are their
// names), a timestamp as a time, R relative to the console's clock.
func (c *Console) readable(s string) string {
	s = markdown.ReplaceAllString(s, "$1")
	return markup.ReplaceAllStringFunc(s, func(m string) string {
		g := markup.FindStringSubmatch(m)
		switch {
		case g[1] != "":
			return "@" + g[1]
		case g[2] != "":
			return "#" + g[2]
		}
		sec, err := strconv.ParseInt(g[3], 10, 64)
		if err != nil {
			return m
		}
		t := time.Unix(sec, 0)
		if g[4] == "R" {
			return relative(t.Sub(c.Clock.Now()))
		}
		return t.Local().Format("2006-01-02 15:04 MST")
	})
}

// relative words a time difference as Discord's R style does ("in 2
// hours", "5 minutes ago").
func relative(d time.Duration) string {
	ago := d < 0
	if ago {
		d = -d
	}
	n, unit := int64(d/time.Second), "second"
	switch {
	case d >= 48*time.Hour:
		n, unit = int64(d/(24*time.Hour)), "day"
	case d >= 90*time.Minute:
		n, unit = int64((d+30*time.Minute)/time.Hour), "hour"
	case d >= 90*time.Second:
		n, unit = int64((d+30*time.Second)/time.Minute), "minute"
	}
	if n != 1 {
		unit += "s"
	}
	if ago {
		return fmt.Sprintf("%d %s ago", n, unit)
	}
	return fmt.Sprintf("in %d %s", n, unit)
}

// HotSeat starts a local game between "white" and "black" on a map (a
// variant name or a start position) and makes bare lines moves of the
// player to move.
func (c *Console) HotSeat(ctx context.Context, game, startPos, clock string) error {
	line := "white: /challenge black color:white thread:false game:" + game + " clock:" + clock
	if startPos != "" {
		line += " map:" + startPos
	}
	if err := c.Exec(ctx, line); err != nil {
		return err
	}
	return c.Exec(ctx, "black: /accept")
}

// PrivateDir makes a fresh directory only the user can enter (0700) for
// board images: under dir when given (created 0700 if missing; an existing
// one must be a real directory, not a link), else a new one in the user's
// cache directory or, failing that, the temp directory (os.MkdirTemp).
func PrivateDir(dir string) (string, error) {
	if dir != "" {
		if err := os.MkdirAll(dir, 0o700); err != nil {
			return "", fmt.Errorf("image directory: %w", err)
		}
		fi, err := os.Lstat(dir)
		if err != nil {
			return "", fmt.Errorf("image directory: %w", err)
		}
		if !fi.IsDir() {
			return "", fmt.Errorf("image directory %s is not a directory (a link?)", dir)
		}
		return dir, nil
	}
	parent := ""
	if cache, err := os.UserCacheDir(); err == nil {
		parent = filepath.Join(cache, "tankbot")
		if err := os.MkdirAll(parent, 0o700); err != nil {
			parent = ""
		}
	}
	d, err := os.MkdirTemp(parent, "boards-")
	if err != nil {
		return "", fmt.Errorf("image directory: %w", err)
	}
	return d, nil
}

// writeFile writes data as dir/name without following links: it goes to a
// new file (O_EXCL, 0600) that is then renamed over name, which replaces a
// link rather than writing through it.
func writeFile(dir, name string, data []byte) (string, error) {
	if name != filepath.Base(name) || strings.HasPrefix(name, ".") {
		return "", fmt.Errorf("bad file name %q", name)
	}
	f, err := os.CreateTemp(dir, ".tmp-*")
	if err != nil {
		return "", err
	}
	_, werr := f.Write(data)
	if cerr := f.Close(); werr == nil {
		werr = cerr
	}
	path := filepath.Join(dir, name)
	if werr == nil {
		werr = os.Rename(f.Name(), path)
	}
	if werr != nil {
		os.Remove(f.Name())
		return "", werr
	}
	return path, nil
}
