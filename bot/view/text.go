package view

import (
	"errors"
	"regexp"
	"strconv"
	"strings"
	"unicode/utf8"

	a11y "github.com/tankbot/tankbot/bot/describe"
	"github.com/tankbot/tankbot/bot/game"
	"github.com/tankbot/tankbot/bot/i18n"
	"github.com/tankbot/tankbot/engine"
	"github.com/tankbot/tankbot/engine/games"
	"github.com/tankbot/tankbot/imaging"
)

// ClipRunes shortens s to at most n runes, ending with … when cut.
func ClipRunes(s string, n int) string {
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	r := []rune(s)
	if n < 1 {
		return ""
	}
	return string(r[:n-1]) + "…"
}

func Mention(id string) string { return "<@" + id + ">" }

// GameLabel is a game's human name with its board size when that varies
// ("Tank Chess (16×16)"); a custom start says so.
func GameLabel(loc, game, variant string, pos engine.Position) string {
	name := game
	if i18n.Has("gamename." + game) {
		name = i18n.T(loc, "gamename."+game)
	}
	var size string
	if s, ok := pos.(interface {
		Width() int
		Height() int
	}); ok {
		size = strconv.Itoa(s.Width()) + "×" + strconv.Itoa(s.Height())
	}
	switch {
	case variant == "" && size != "":
		return i18n.T(loc, "game.label.custom", name, size)
	case variant == "":
		return i18n.T(loc, "game.label.customnosize", name)
	case size != "":
		return i18n.T(loc, "game.label", name, size)
	}
	return name
}

// LabelOf is gameLabel for a stored start position.
func LabelOf(loc, game, variant, start string) string {
	var pos engine.Position
	if rules, ok := lookupRules(game); ok {
		pos, _ = rules.Decode(start)
	}
	return GameLabel(loc, game, variant, pos)
}

// OutcomeWords states a finished game's result: "Black (bob) wins on time".
func OutcomeWords(loc string, g *game.Game) string {
	reason := g.Reason
	if i18n.Has("reason." + g.Reason) {
		reason = i18n.T(loc, "reason."+g.Reason)
	}
	switch g.Result {
	case engine.WhiteWins.String():
		return i18n.T(loc, "end.win", i18n.T(loc, "game.white"), g.White.Name, reason)
	case engine.BlackWins.String():
		return i18n.T(loc, "end.win", i18n.T(loc, "game.black"), g.Black.Name, reason)
	case engine.Draw.String():
		return i18n.T(loc, "end.draw", reason)
	}
	return i18n.T(loc, "end.aborted")
}

// AnnounceText explains an announcement in words, naming pieces and
// squares: "CHECK: bob's CLT on H16 is under fire from LT F8." Each game may
// word it ("announce.<game>.<kind>"), else the generic key is used.
func AnnounceText(loc string, g *game.Game, pos engine.Position, a engine.Announcement) string {
	key := "announce." + g.Game + "." + a.Kind
	if !i18n.Has(key) {
		return "**" + announce(loc, g, a) + "**"
	}
	var from, to []string
	seenTo := map[string]bool{}
	// A game that names its pieces (Tank Chess) writes squares in upper
	// case in its notation, while its lines are lower case.
	pn, named := pos.(interface{ PieceName(string) string })
	sq := func(s string) string {
		if named {
			return strings.ToUpper(s)
		}
		return s
	}
	for _, l := range a.Lines {
		f := sq(l[0])
		if named {
			if n := pn.PieceName(l[0]); n != "" {
				f = n + " " + f
			}
		}
		from = append(from, f)
		if !seenTo[l[1]] {
			seenTo[l[1]] = true
			to = append(to, sq(l[1]))
		}
	}
	const most = 4
	list := func(s []string) string {
		if len(s) > most {
			s = append(s[:most:most], "…")
		}
		return strings.Join(s, ", ")
	}
	// Check and escape are about the side that moved; the victim of a check
	// is the other one. Duties are about the side to move.
	subject := g.User(int(a.Side))
	if a.Kind == engine.AnnounceCheck {
		subject = g.User(1 - int(a.Side))
	}
	return i18n.T(loc, key, subject.Name, list(to), list(from))
}

// BoardColor is the embed's bar: the side to move, red in check, grey
// when the game is over.
func BoardColor(g *game.Game, pos engine.Position) int {
	if g.Status != game.Active {
		return colorOver
	}
	for _, a := range pos.Announcements() {
		if a.Kind == engine.AnnounceCheck {
			return colorCheck
		}
	}
	if pos.Turn() == engine.Black {
		return colorBlack
	}
	return colorWhite
}

// MoveWords says in words what a move written in notation does, when the
// game's catalog can: drops ("*M" then the square) name the piece placed,
// and actions with a key "movedesc.<game>.<action>" ("ready", the draft's
// formations) are described. It returns "" otherwise.
func MoveWords(loc string, pos engine.Position, m engine.Move) string {
	game := pos.Rules().Name()
	steps := m.Steps()
	if len(steps) == 0 {
		return ""
	}
	if len(steps) == 2 && strings.HasPrefix(steps[0], "*") && i18n.Has(game+".piece."+steps[0][1:]) {
		return i18n.T(loc, "movedesc.drop", i18n.T(loc, game+".piece."+steps[0][1:]), steps[1])
	}
	action, arg, _ := strings.Cut(steps[0], ":")
	if arg != "" {
		action += "-with" // "ready:quick": ready with a formation
	}
	if key := "movedesc." + game + "." + action; len(steps) == 1 && i18n.Has(key) {
		return i18n.T(loc, key, Words(loc, game, arg))
	}
	return ""
}

// EngineError translates an *engine.Error through the catalog key
// "err.<code>"; codes added after the catalog fall back to English.
func EngineError(loc string, err error) string {
	var ee *engine.Error
	if !errors.As(err, &ee) {
		return i18n.T(loc, "refuse.internal")
	}
	if i18n.Has("err." + ee.Code) {
		return i18n.T(loc, "err."+ee.Code, ee.Args...)
	}
	return ee.Msg
}

// Facts states what the position says beside the board (Camelot castle
// moves left, Gungi hands and draft), each through the catalog key
// "fact.<key>"; side names in the arguments are translated.
func Facts(loc string, pos engine.Position) []string {
	d, ok := pos.(engine.Describer)
	if !ok {
		return nil
	}
	var out []string
	for _, f := range d.Facts() {
		key := "fact." + f.Key
		if !i18n.Has(key) {
			continue
		}
		args := make([]string, len(f.Args))
		for i, a := range f.Args {
			if w, ok := PieceWords(loc, pos.Rules().Name(), a); ok {
				args[i] = w
				continue
			}
			switch a {
			case "white", "black":
				a = i18n.T(loc, "game."+a)
			default:
				a = Words(loc, pos.Rules().Name(), a)
			}
			args[i] = a
		}
		out = append(out, i18n.T(loc, key, args...))
	}
	return out
}

// PieceWords writes a hand in words ("Marshal 1, General 6, Pawn 9") when
// every letter is a piece the catalog names ("<game>.piece.<letter>").
func PieceWords(loc, game, s string) (string, bool) {
	if !pieceCounts.MatchString(s) {
		return "", false
	}
	var parts []string
	for i := 0; i < len(s); {
		j := i + 1
		for j < len(s) && s[j] >= '0' && s[j] <= '9' {
			j++
		}
		key := game + ".piece." + s[i:i+1]
		if !i18n.Has(key) {
			return "", false
		}
		parts = append(parts, i18n.T(loc, key)+" "+s[i+1:j])
		i = j
	}
	return strings.Join(parts, ", "), true
}

// Phase names a stage of the game worth putting in the title (the Gungi
// draft), from the position's facts with a "phase.<key>" catalog entry.
func Phase(loc string, pos engine.Position) string {
	d, ok := pos.(engine.Describer)
	if !ok {
		return ""
	}
	for _, f := range d.Facts() {
		if i18n.Has("phase." + f.Key) {
			return i18n.T(loc, "phase."+f.Key)
		}
	}
	return ""
}

// ResultText is "Game over: Black (bob) wins on time."
func ResultText(loc string, g *game.Game) string {
	return i18n.T(loc, "game.over", OutcomeWords(loc, g))
}

// RenderPNG draws pos through the imaging package: last highlighted, Black
// at the bottom when flip, every word in loc's language (the message the
// image goes with), and, for a finished game g (nil: none), the stored
// result, which may have been decided off the board.
func RenderPNG(pos engine.Position, last engine.Move, flip bool, loc string, g *game.Game) ([]byte, error) {
	opt := imaging.Options{Last: last, Flip: flip, Text: i18n.Text(loc)}
	if g != nil && g.Status == game.Finished {
		for _, r := range []engine.Result{engine.WhiteWins, engine.BlackWins, engine.Draw} {
			if g.Result == r.String() {
				opt.Outcome = &engine.Outcome{Result: r, Reason: engine.Reason(g.Reason)}
			}
		}
	}
	return imaging.Render(pos, opt)
}

// StoredOutcome is a finished game's stored result (which may have been
// decided off the board: a resignation, the clock), nil when unknown.
func StoredOutcome(g *game.Game) *engine.Outcome {
	for _, r := range []engine.Result{engine.WhiteWins, engine.BlackWins, engine.Draw} {
		if g.Result == r.String() {
			return &engine.Outcome{Result: r, Reason: engine.Reason(g.Reason)}
		}
	}
	return nil
}

// AltOr is describe.Alt, or, when the position cannot be described, the
// game's name and move number (never empty).
func AltOr(loc string, d a11y.Board) string {
	s, err := a11y.Alt(loc, d)
	if err != nil || s == "" {
		return ClipAlt(GameLabel(loc, d.Game, d.Variant, d.Pos))
	}
	return s
}

// PositionAlt is the alt text of a picture of a position outside a game
// (a puzzle, the rules' example, a review's board): prev and last, when
// set, are the move shown.
func PositionAlt(loc, game string, pos, prev engine.Position, last engine.Move) string {
	return AltOr(loc, a11y.Board{Game: game, Pos: pos, Prev: prev, Last: last})
}

// ClipAlt keeps s within Discord's limit on a description.
func ClipAlt(s string) string {
	if utf8.RuneCountInString(s) <= a11y.AltLimit {
		return s
	}
	return string([]rune(s)[:a11y.AltLimit-1]) + "…"
}

// StandingsAlt is the standings pictures' alt text: the table as a
// numbered list (every page's rows: each picture holds a part of it, the
// list reads the whole).
func StandingsAlt(loc, title string, pages []imaging.StandingsTable) string {
	var rows []a11y.Standing
	for _, pg := range pages {
		for _, row := range pg.Rows {
			if len(row) < 4 {
				continue
			}
			rank, _ := strconv.Atoi(row[0])
			games, _ := strconv.Atoi(row[len(row)-1])
			rows = append(rows, a11y.Standing{Rank: rank, Name: row[1], Points: row[2], Games: games})
		}
	}
	return a11y.Standings(loc, title, rows, a11y.AltLimit)
}

// ReplayAlt gives the animated replay among a game's files (gameFiles)
// its alt text in loc: which game, how many moves; the final board it
// goes with has the position's own.
func ReplayAlt(loc string, g *game.Game, files []File) {
	for i := range files {
		if files[i].ContentType == "image/gif" {
			files[i].Description = ClipAlt(i18n.T(loc, "a11y.replay", GameLabel(loc, g.Game, g.Variant, nil), g.Num(), strconv.Itoa(g.Ply)))
		}
	}
}

// Suffix is the record's announcement mark: tank "+", "-", "+-".
func Suffix(p engine.Position) string {
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
func announce(loc string, g *game.Game, a engine.Announcement) string {
	if !i18n.Has("announce." + a.Kind) {
		return a.Kind
	}
	return i18n.T(loc, "announce."+a.Kind, g.User(int(a.Side)).Name)
}

// Words translates a value a game's facts or shortcuts carry through its
// descriptor's Words ("quick" → "quick formation"); other values stay.
func Words(loc, game, value string) string {
	if key, ok := describeGame(game).Words[value]; ok && i18n.Has(key) {
		return i18n.T(loc, key)
	}
	return value
}

// Embed colours: the side to move, red when in check, grey when over.
const (
	colorWhite = 0xE8E6E3
	colorBlack = 0x2B2D31
	colorCheck = 0xE03131
	colorOver  = 0x868E96
)

// pieceCounts matches a hand written as letters and counts ("M1G6P9").
var pieceCounts = regexp.MustCompile(`^(?:[A-Z][0-9]+)+$`)

// lookupRules is the game's rules from the registry.
func lookupRules(name string) (engine.Rules, bool) {
	r, err := games.Lookup(name)
	return r, err == nil
}

// describeGame is the game's descriptor from the registry (zero if unknown).
func describeGame(name string) engine.Descriptor {
	d, _ := games.Describe(name)
	return d
}

// MaxText is the longest text one message carries: the bound the core
// keeps (text mode splits its answers by it) and every transport accepts
// (Discord's own limits are bot/discord's).
const MaxText = 2000

// ellipsis marks text that was cut.
const ellipsis = "…"

// Clip shortens s to at most n runes, ending in an ellipsis when it cut.
// It never splits a markup token (<@id>, <#id>, <t:…>, <:emoji:id>) when
// the cut can move before it, and the result is valid UTF-8 even when s
// was not (invalid bytes become U+FFFD).
func Clip(s string, n int) string {
	if !utf8.ValidString(s) {
		s = strings.ToValidUTF8(s, "\uFFFD")
	}
	if n <= 0 {
		return ""
	}
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	if n == 1 {
		return ellipsis
	}
	// Byte offset of the (n-1)th rune: room for the ellipsis.
	cut := 0
	for k := 0; k < n-1; k++ {
		_, size := utf8.DecodeRuneInString(s[cut:])
		cut += size
	}
	head := s[:cut]
	// An unclosed "<" that starts a token: cut before it, so a mention
	// is either whole or absent (a half mention shows as raw text).
	if lt := strings.LastIndexByte(head, '<'); lt >= 0 && !strings.Contains(head[lt:], ">") && tokenStart(s[lt:]) {
		head = head[:lt]
	}
	return strings.TrimRight(head, " \n") + ellipsis
}

// tokenStart reports whether s begins with a markup token.
func tokenStart(s string) bool {
	for _, p := range []string{"<@", "<#", "<t:", "<:", "<a:", "</"} {
		if strings.HasPrefix(s, p) {
			return true
		}
	}
	return false
}
