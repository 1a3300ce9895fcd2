// Package record writes and reads tankbot's game record files: a header of
// PGN-like tag pairs followed by one numbered move per line in the game's
// own notation with its announcement suffix, then the result. Reading
// replays every move, so a record that parses is a legal game. Pure text
// and rules: no I/O.
//
//	[Game "tank"]
//	[Variant "basic16"]
//	[White "alice"]
//	[Black "bob"]
//	[Result "1-0"]
//	[Reason "resignation"]
//
//	1. M3 > N5SE
//	1... K14 > M12NE+
//	1-0
//
// Moves are one per line because notations contain spaces ("M3 > N5SE").
// A line "N. move" is White's move of move pair N, "N... move" Black's
// (Gungi's draft starts with Black: "1... M*f8"). Lines starting with ";"
// are comments; those after a move annotate it (Record.Comments, as the
// game review writes them). See docs/ratings.md and docs/review.md.
package record

import (
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/tankbot/tankbot/engine"
	"github.com/tankbot/tankbot/engine/games"
)

// Record is one game as a record file holds it.
type Record struct {
	Game    string // rules name: tank, camelot, gungi
	Variant string // named start ("basic16"), or "" for a custom start
	Start   string // encoded start position (the variant's when named)
	White   string // display names
	Black   string
	// WhiteRating and BlackRating are the ratings before the game as
	// shown ("1523", "1500?"), "" when casual.
	WhiteRating, BlackRating string
	Clock                    string    // "10m+5s", "none"
	Date                     time.Time // when the game started (UTC), zero if unknown
	Outcome                  engine.Outcome
	Number                   int  // the game's number on its server, 0 if none
	Rated                    bool // the result counted for ratings
	// Tags are further tag pairs, kept in order (unknown tags are kept
	// when read).
	Tags [][2]string
	// Moves in canonical notation, without suffixes.
	Moves []string
	// Comments annotate moves: Comments[i], when present and not empty,
	// follows move i as comment lines ("; text"), one per line of the
	// text. Comments before the first move are not kept.
	Comments []string
}

// Comment is the comment after move i ("" when none).
func (r *Record) Comment(i int) string {
	if i < 0 || i >= len(r.Comments) {
		return ""
	}
	return r.Comments[i]
}

const dateLayout = time.RFC3339

// known tags in the order they are written.
var known = []string{"Game", "Number", "Variant", "Position", "White", "Black", "WhiteRating", "BlackRating", "Rated", "Clock", "Date", "Result", "Reason"}

// Suffix is the announcement mark written after a move that led to p:
// "+" when the mover gives check (Tank Chess threatens the CLT, Gungi
// attacks the Marshal), "-" when the mover's CLT can escape, "+-" both.
func Suffix(p engine.Position) string {
	check, escape := false, false
	for _, a := range p.Announcements() {
		switch a.Kind {
		case engine.AnnounceCheck:
			check = true
		case engine.AnnounceEscape:
			escape = true
		}
	}
	s := ""
	if check {
		s += "+"
	}
	if escape {
		s += "-"
	}
	return s
}

// Write renders r as a record file. It replays the moves from the start to
// number them by side and add announcement suffixes; an illegal move is an
// error.
func Write(r *Record) (string, error) {
	rules, err := games.Lookup(r.Game)
	if err != nil {
		return "", fmt.Errorf("record: %w", err)
	}
	start, err := startOf(rules, r.Variant, r.Start)
	if err != nil {
		return "", err
	}
	var sb strings.Builder
	tag := func(k, v string) {
		sb.WriteString("[" + k + " " + quote(v) + "]\n")
	}
	tag("Game", rules.Name())
	if r.Number > 0 {
		tag("Number", strconv.Itoa(r.Number))
	}
	if r.Variant != "" {
		tag("Variant", r.Variant)
	}
	// A named variant stands for its start; any other start is written out.
	if v, err := rules.Start(r.Variant); r.Variant == "" || err != nil || v.Encode() != start.Encode() {
		tag("Position", start.Encode())
	}
	tag("White", r.White)
	tag("Black", r.Black)
	if r.WhiteRating != "" || r.BlackRating != "" {
		tag("WhiteRating", r.WhiteRating)
		tag("BlackRating", r.BlackRating)
	}
	if r.Rated {
		tag("Rated", "yes")
	} else {
		tag("Rated", "no")
	}
	if r.Clock != "" {
		tag("Clock", r.Clock)
	}
	if !r.Date.IsZero() {
		tag("Date", r.Date.UTC().Format(dateLayout))
	}
	tag("Result", r.Outcome.Result.String())
	if r.Outcome.Reason != "" {
		tag("Reason", string(r.Outcome.Reason))
	}
	for _, kv := range r.Tags {
		if !validKey(kv[0]) || isKnown(kv[0]) {
			return "", fmt.Errorf("record: tag %q is not a free tag name", kv[0])
		}
		tag(kv[0], kv[1])
	}
	sb.WriteString("\n")
	pos := start
	for i, n := range r.Moves {
		m, err := pos.ParseMove(n)
		if err != nil {
			return "", fmt.Errorf("record: move %d %q: %w", i+1, n, err)
		}
		next, err := pos.Play(m)
		if err != nil {
			return "", fmt.Errorf("record: move %d %q: %w", i+1, n, err)
		}
		sb.WriteString(MoveLabel(i, pos.Turn()) + " " + pos.FormatMove(m) + Suffix(next) + "\n")
		writeComment(&sb, r.Comment(i))
		pos = next
	}
	sb.WriteString(r.Outcome.Result.String() + "\n")
	return sb.String(), nil
}

// writeComment writes c as comment lines, one per line of c; blank lines
// are dropped (a comment line is never empty, so it reads back the same).
func writeComment(sb *strings.Builder, c string) {
	for _, l := range strings.Split(strings.ReplaceAll(c, "\r", "\n"), "\n") {
		if l = strings.TrimSpace(l); l != "" {
			sb.WriteString("; " + l + "\n")
		}
	}
}

// MoveLabel is "N." for White and "N..." for Black (turn: the side that
// plays), N the full-move number (engine.MoveNumber) of the ply index i
// (0-based).
func MoveLabel(i int, turn engine.Side) string {
	n := strconv.Itoa(engine.MoveNumber(i))
	if turn == engine.Black {
		return n + "..."
	}
	return n + "."
}

func startOf(rules engine.Rules, variant, start string) (engine.Position, error) {
	if start != "" {
		p, err := rules.Decode(start)
		if err != nil {
			return nil, fmt.Errorf("record: start position: %w", err)
		}
		return p, nil
	}
	if variant == "" {
		return nil, fmt.Errorf("record: neither a variant nor a start position")
	}
	p, err := rules.Start(variant)
	if err != nil {
		return nil, fmt.Errorf("record: variant %q: %w", variant, err)
	}
	return p, nil
}

func isKnown(k string) bool {
	for _, n := range known {
		if strings.EqualFold(n, k) {
			return true
		}
	}
	return false
}

func validKey(k string) bool {
	if k == "" || len(k) > 40 {
		return false
	}
	for _, c := range k {
		if !(c >= 'A' && c <= 'Z' || c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '_') {
			return false
		}
	}
	return true
}

// quote writes a tag value between double quotes, escaping \ and " and
// turning line breaks into spaces (a tag is one line).
func quote(v string) string {
	v = strings.NewReplacer("\r\n", " ", "\n", " ", "\r", " ").Replace(v)
	return `"` + strings.NewReplacer(`\`, `\\`, `"`, `\"`).Replace(v) + `"`
}
