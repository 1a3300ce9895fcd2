package record

import (
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/tankbot/tankbot/engine"
	"github.com/tankbot/tankbot/engine/games"
)

// MaxSize bounds what Parse reads (a long Gungi game is about 40 kB).
const MaxSize = 1 << 20

// Error is a record that does not read, with the line where it went wrong.
type Error struct {
	Line int
	Msg  string
	Err  error // the rules error for an illegal move, if any
}

func (e *Error) Error() string {
	if e.Line == 0 {
		return "record: " + e.Msg
	}
	return fmt.Sprintf("record line %d: %s", e.Line, e.Msg)
}

func (e *Error) Unwrap() error { return e.Err }

var results = map[string]engine.Result{"1-0": engine.WhiteWins, "0-1": engine.BlackWins, "1/2-1/2": engine.Draw, "*": engine.Ongoing}

// ParseResult reads a result as engine.Result.String writes it ("1-0",
// "0-1", "1/2-1/2", "*").
func ParseResult(s string) (engine.Result, bool) {
	r, ok := results[s]
	return r, ok
}

// Parse reads a record file and replays it: every move must be legal, its
// number must say the side that played it, a suffix must be the one the
// position announces (a missing suffix is accepted), and a result the board
// decided must agree with the Result tag.
func Parse(text string) (*Record, error) {
	if len(text) > MaxSize {
		return nil, &Error{Msg: fmt.Sprintf("the file is %d bytes, more than %d", len(text), MaxSize)}
	}
	r := &Record{}
	tags := map[string]string{}
	lines := strings.Split(strings.ReplaceAll(text, "\r\n", "\n"), "\n")
	type moveLine struct {
		line      int
		num, move string
		comment   []string
	}
	var mls []moveLine
	resultLine, result := 0, ""
	inMoves := false
	for i, raw := range lines {
		ln := i + 1
		s := strings.TrimSpace(raw)
		if c, ok := strings.CutPrefix(s, ";"); ok {
			if c = strings.TrimSpace(c); c != "" && len(mls) > 0 && resultLine == 0 {
				mls[len(mls)-1].comment = append(mls[len(mls)-1].comment, c)
			}
			continue
		}
		if s == "" {
			continue
		}
		if resultLine != 0 {
			return nil, &Error{Line: ln, Msg: fmt.Sprintf("text after the result: %q", clip(s))}
		}
		if strings.HasPrefix(s, "[") {
			if inMoves {
				return nil, &Error{Line: ln, Msg: "a tag after the moves"}
			}
			k, v, err := parseTag(s)
			if err != nil {
				return nil, &Error{Line: ln, Msg: err.Error()}
			}
			if _, dup := tags[strings.ToLower(k)]; dup {
				return nil, &Error{Line: ln, Msg: fmt.Sprintf("tag %s appears twice", k)}
			}
			tags[strings.ToLower(k)] = v
			if !isKnown(k) {
				r.Tags = append(r.Tags, [2]string{k, v})
			}
			continue
		}
		inMoves = true
		if _, ok := results[s]; ok {
			resultLine, result = ln, s
			continue
		}
		num, move, ok := strings.Cut(s, " ")
		n := strings.TrimSuffix(strings.TrimSuffix(num, "..."), ".")
		if !ok || n == num || !isDigits(n) {
			return nil, &Error{Line: ln, Msg: fmt.Sprintf("expected a numbered move (\"12. move\" or \"12... move\"), got %q", clip(s))}
		}
		mls = append(mls, moveLine{line: ln, num: num, move: strings.TrimSpace(move)})
	}

	get := func(k string) string { return tags[strings.ToLower(k)] }
	rules, err := games.Lookup(get("Game"))
	if err != nil {
		return nil, &Error{Msg: "Game tag: " + err.Error()}
	}
	r.Game = rules.Name()
	r.Variant, r.Start = get("Variant"), get("Position")
	start, err := startOf(rules, r.Variant, r.Start)
	if err != nil {
		return nil, &Error{Msg: strings.TrimPrefix(err.Error(), "record: "), Err: err}
	}
	r.Start = start.Encode()
	r.White, r.Black = get("White"), get("Black")
	r.WhiteRating, r.BlackRating = get("WhiteRating"), get("BlackRating")
	r.Clock = get("Clock")
	switch v := get("Rated"); v {
	case "yes":
		r.Rated = true
	case "no", "":
	default:
		return nil, &Error{Msg: fmt.Sprintf("Rated tag must be yes or no, not %q", clip(v))}
	}
	if v := get("Number"); v != "" {
		n, err := strconv.Atoi(v)
		if err != nil || n < 1 {
			return nil, &Error{Msg: fmt.Sprintf("Number tag must be a positive integer, not %q", clip(v))}
		}
		r.Number = n
	}
	if v := get("Date"); v != "" {
		d, err := time.Parse(dateLayout, v)
		if err != nil {
			return nil, &Error{Msg: fmt.Sprintf("Date tag %q is not like 2006-01-02T15:04:05Z", clip(v))}
		}
		r.Date = d.UTC()
	}
	tagResult := get("Result")
	if tagResult == "" {
		tagResult = result
	}
	res, ok := results[tagResult]
	if !ok {
		return nil, &Error{Msg: fmt.Sprintf("Result tag must be 1-0, 0-1, 1/2-1/2 or *, not %q", clip(tagResult))}
	}
	if result != "" && result != tagResult {
		return nil, &Error{Line: resultLine, Msg: fmt.Sprintf("the result %s differs from the Result tag %s", result, tagResult)}
	}
	reason := engine.Reason(get("Reason"))

	g := engine.NewGame(start)
	for i, ml := range mls {
		pos := g.Position()
		if want := MoveLabel(i, pos.Turn()); ml.num != want {
			return nil, &Error{Line: ml.line, Msg: fmt.Sprintf("move %d should be numbered %q, not %q", i+1, want, ml.num)}
		}
		m, suffix, err := parseMove(pos, ml.move)
		if err != nil {
			return nil, &Error{Line: ml.line, Msg: fmt.Sprintf("move %q: %v", clip(ml.move), err), Err: err}
		}
		if err := g.Play(m); err != nil {
			return nil, &Error{Line: ml.line, Msg: fmt.Sprintf("move %q: %v", clip(ml.move), err), Err: err}
		}
		if want := Suffix(g.Position()); suffix != "" && suffix != want {
			return nil, &Error{Line: ml.line, Msg: fmt.Sprintf("move %q is marked %q but the position announces %q", clip(ml.move), suffix, want)}
		}
		r.Moves = append(r.Moves, g.Moves()[i])
		if len(ml.comment) > 0 {
			if r.Comments == nil {
				r.Comments = make([]string, len(mls))
			}
			r.Comments[i] = strings.Join(ml.comment, "\n")
		}
	}
	board := g.Outcome()
	switch {
	case board.Over() && board.Result != res:
		return nil, &Error{Msg: fmt.Sprintf("the Result tag says %s but the final position is %s (%s)", res, board.Result, board.Reason)}
	case board.Over() && reason == "":
		reason = board.Reason
	}
	r.Outcome = engine.Outcome{Result: res, Reason: reason}
	return r, nil
}

// parseMove reads a move with an optional announcement suffix. The suffix
// is tried off first, as notations may end in the same characters.
func parseMove(pos engine.Position, s string) (engine.Move, string, error) {
	var firstErr error
	for _, k := range []int{2, 1, 0} {
		if k > len(s) || strings.Trim(s[len(s)-k:], "+-") != "" {
			continue
		}
		body := strings.TrimSpace(s[:len(s)-k])
		if body == "" {
			continue
		}
		m, err := pos.ParseMove(body)
		if err == nil {
			return m, s[len(s)-k:], nil
		}
		if firstErr == nil || k == 0 {
			firstErr = err
		}
	}
	if firstErr == nil {
		firstErr = fmt.Errorf("empty move")
	}
	return nil, "", firstErr
}

func parseTag(s string) (k, v string, err error) {
	if !strings.HasSuffix(s, "]") {
		return "", "", fmt.Errorf("a tag must end with ]: %q", clip(s))
	}
	body := s[1 : len(s)-1]
	k, q, ok := strings.Cut(body, " ")
	if !ok || !validKey(k) {
		return "", "", fmt.Errorf("expected [Name \"value\"], got %q", clip(s))
	}
	q = strings.TrimSpace(q)
	if len(q) < 2 || q[0] != '"' || q[len(q)-1] != '"' {
		return "", "", fmt.Errorf("the value of %s must be in double quotes", k)
	}
	var sb strings.Builder
	in := q[1 : len(q)-1]
	for i := 0; i < len(in); i++ {
		c := in[i]
		switch {
		case c == '\\' && i+1 < len(in) && (in[i+1] == '\\' || in[i+1] == '"'):
			sb.WriteByte(in[i+1])
			i++
		case c == '\\' || c == '"':
			return "", "", fmt.Errorf("the value of %s has a bare %c (write \\%c)", k, c, c)
		default:
			sb.WriteByte(c)
		}
	}
	return k, sb.String(), nil
}

func isDigits(s string) bool {
	if s == "" || len(s) > 6 {
		return false
	}
	for _, c := range s {
		if c < '0' || c > '9' {
			return false
		}
	}
	return true
}

// clip shortens user text quoted in an error message.
func clip(s string) string {
	r := []rune(s)
	if len(r) > 40 {
		return string(r[:40]) + "…"
	}
	return s
}

// Positions replays the record: the positions before and after every move
// (len(Moves)+1) and the moves themselves, for drawing any ply.
func (r *Record) Positions() ([]engine.Position, []engine.Move, error) {
	rules, err := games.Lookup(r.Game)
	if err != nil {
		return nil, nil, fmt.Errorf("record: %w", err)
	}
	pos, err := startOf(rules, r.Variant, r.Start)
	if err != nil {
		return nil, nil, err
	}
	ps := []engine.Position{pos}
	ms := make([]engine.Move, 0, len(r.Moves))
	for i, n := range r.Moves {
		m, err := pos.ParseMove(n)
		if err == nil {
			pos, err = pos.Play(m)
		}
		if err != nil {
			return nil, nil, fmt.Errorf("record: move %d %q: %w", i+1, n, err)
		}
		ps, ms = append(ps, pos), append(ms, m)
	}
	return ps, ms, nil
}
