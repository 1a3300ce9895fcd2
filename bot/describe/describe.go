// Package describe words game positions for people who cannot see the
// board picture: the alt text that goes with every board image (Discord's
// attachment description, at most 1,024 characters), a text board for the
// text mode, and the questions of a blind mode in the manner of lichess's
// (where are my pieces of a kind, what is on a square, what can strike a
// square, which moves a piece has). It is pure: positions in, words out,
// every word from the catalog in the reader's language.
package describe

import (
	"fmt"
	"sort"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/tankbot/tankbot/bot/i18n"
	"github.com/tankbot/tankbot/engine"
)

// AltLimit is Discord's limit on an attachment's description, in
// characters.
const AltLimit = 1024

// Board is one board picture to describe.
type Board struct {
	Game    string // "tank", "camelot", "gungi"
	Number  int64  // the game's number (0: not shown, e.g. a puzzle)
	Variant string // the map or start position's name ("" when not shown)
	Pos     engine.Position
	// Prev and Last are the position before the last move and the move;
	// both nil when there is none.
	Prev engine.Position
	Last engine.Move
	// Outcome, when set and over, is how the game ended (resignation,
	// time...: not in the position). nil: the position's own status.
	Outcome *engine.Outcome
}

// tr is the catalog in one locale.
func tr(locale string) engine.Translator {
	return func(key string, args ...string) string { return i18n.T(locale, key, args...) }
}

func sideName(t engine.Translator, s engine.Side) string {
	return t("color." + s.String())
}

// Alt is the alt text of a board picture in locale, at most AltLimit
// characters: the game and its move number, whose turn it is or the
// result, the announcements (CHECK, ESCAPE, must capture), the last move
// in words, then the position (the side to move first), the hands and the
// draft. When the position does not fit, as much of it as fits is given,
// and the text says so and points to the text board.
func Alt(locale string, b Board) (string, error) {
	t := tr(locale)
	bd, err := adapt(b.Pos)
	if err != nil {
		return "", err
	}
	head := header(t, b, bd)
	parts := positionParts(t, b.Pos, bd)
	return fit(t, head, parts, AltLimit), nil
}

// header is the facts that come before the position, most important
// first.
func header(t engine.Translator, b Board, bd board) []string {
	var out []string
	game := t("gamename." + b.Game)
	n := strconv.Itoa(bd.moveNumber())
	if b.Number > 0 {
		out = append(out, t("a11y.game", game, strconv.FormatInt(b.Number, 10), n))
	} else {
		out = append(out, t("a11y.game.unnumbered", game, n))
	}
	o := b.Pos.Status()
	if b.Outcome != nil && b.Outcome.Over() {
		o = *b.Outcome
	}
	if o.Over() {
		out = append(out, result(t, o))
	} else {
		out = append(out, t("a11y.turn", sideName(t, b.Pos.Turn())))
	}
	for _, a := range b.Pos.Announcements() {
		var from []string
		for _, l := range a.Lines {
			from = append(from, strings.ToLower(l[0]))
		}
		key := "a11y.announce." + a.Kind
		if i18n.Has(key + "." + b.Game) {
			key += "." + b.Game
		}
		out = append(out, t(key, sideName(t, a.Side), strings.Join(dedupe(from), ", ")))
	}
	if b.Last != nil && b.Prev != nil {
		if s := bd.lastMove(t, b.Prev, b.Last); s != "" {
			out = append(out, t("a11y.last", s))
		}
	}
	if b.Variant != "" && b.Game == "tank" {
		out = append(out, t("a11y.map", b.Variant))
	}
	return out
}

// LastMove is the move that led to the board in words ("White heavy tank
// c3 to c5, facing north"), "" when there is none.
func LastMove(locale string, b Board) (string, error) {
	if b.Last == nil || b.Prev == nil {
		return "", nil
	}
	bd, err := adapt(b.Pos)
	if err != nil {
		return "", err
	}
	return bd.lastMove(tr(locale), b.Prev, b.Last), nil
}

func result(t engine.Translator, o engine.Outcome) string {
	reason := ""
	if o.Reason != "" {
		reason = t("reason." + string(o.Reason))
		if reason == "reason."+string(o.Reason) {
			reason = string(o.Reason)
		}
	}
	if w, ok := o.Winner(); ok {
		return t("a11y.result.win", sideName(t, w), reason)
	}
	return t("a11y.result.draw", reason)
}

func dedupe(xs []string) []string {
	seen := map[string]bool{}
	var out []string
	for _, x := range xs {
		if !seen[x] {
			seen[x] = true
			out = append(out, x)
		}
	}
	return out
}

// part is one unit of the position the cut may stop before: a side's
// heading with its first group, a further group, the towers, a hand.
type part struct{ text string }

// positionParts is the position in spoken form, in the order it is given:
// the side to move, the other side, towers, then the facts beyond the
// board.
func positionParts(t engine.Translator, pos engine.Position, bd board) []part {
	occ := bd.occupants()
	var out []part
	first := pos.Turn()
	for _, s := range []engine.Side{first, first.Opponent()} {
		groups := sideGroups(t, occ, s)
		if len(groups) == 0 {
			out = append(out, part{t("a11y.side.none", sideName(t, s))})
			continue
		}
		for i, g := range groups {
			sep := ";"
			if i == len(groups)-1 {
				sep = "."
			}
			if i == 0 {
				out = append(out, part{t("a11y.side", sideName(t, s)) + " " + g + sep})
			} else {
				out = append(out, part{g + sep})
			}
		}
	}
	// Towers one part each, so that a cut keeps as many as fit.
	var towers []string
	for _, o := range occ {
		if len(o.tower) > 1 {
			towers = append(towers, t("a11y.tower", o.square, tiers(t, o.tower)))
		}
	}
	for i, tw := range towers {
		if i == 0 {
			tw = t("a11y.towers") + " " + tw
		}
		if i == len(towers)-1 {
			out = append(out, part{tw + "."})
		} else {
			out = append(out, part{tw + ";"})
		}
	}
	for _, e := range bd.extras(t) {
		out = append(out, part{e})
	}
	return out
}

// sideGroups is one side's pieces (the top of every lone square; towers
// come apart) as groups "kind square, square", the kinds in the game's
// order and wrecks after whole pieces.
func sideGroups(t engine.Translator, occ []occupant, s engine.Side) []string {
	type key struct {
		kind  string
		wreck bool
	}
	var order []key
	items := map[key][]string{}
	for _, o := range occ {
		if o.obstacle || len(o.tower) != 1 || o.tower[0].side != s {
			continue
		}
		u := o.tower[0]
		k := key{u.kind, u.wreck}
		if _, ok := items[k]; !ok {
			order = append(order, k)
		}
		item := o.square
		if u.facing != "" {
			item = t("a11y.facing", o.square, t(u.facing))
		}
		items[k] = append(items[k], item)
	}
	sort.SliceStable(order, func(i, j int) bool {
		if order[i].wreck != order[j].wreck {
			return !order[i].wreck
		}
		return kindRank(order[i].kind) < kindRank(order[j].kind)
	})
	var out []string
	for _, k := range order {
		name := t(k.kind)
		if k.wreck {
			name = t("a11y.wreck", name)
		}
		out = append(out, t("a11y.group", name, strings.Join(items[k], ", ")))
	}
	return out
}

// kindOrder ranks the kinds of every game as they are spoken: the piece
// a player looks for first (command tank, Marshal, Knight), then by
// strength.
var kindOrder = func() map[string]int {
	m := map[string]int{}
	for i, k := range []string{
		"a11y.tank.CLT", "a11y.tank.HT", "a11y.tank.MT", "a11y.tank.LT", "a11y.tank.TD", "a11y.tank.HM",
		"a11y.camelot.knight", "a11y.camelot.man",
		"gungi.piece.M", "gungi.piece.G", "gungi.piece.L", "gungi.piece.S", "gungi.piece.Y", "gungi.piece.K",
		"gungi.piece.B", "gungi.piece.T", "gungi.piece.W", "gungi.piece.F", "gungi.piece.C", "gungi.piece.N", "gungi.piece.P",
	} {
		m[k] = i
	}
	return m
}()

func kindRank(k string) int {
	if r, ok := kindOrder[k]; ok {
		return r
	}
	return len(kindOrder)
}

func unitName(t engine.Translator, u unit) string {
	name := t(u.kind)
	if u.wreck {
		name = t("a11y.wreck", name)
	}
	s := t("a11y.piece", sideName(t, u.side), name)
	if u.facing != "" {
		s = t("a11y.facing", s, t(u.facing))
	}
	return s
}

// tiers words a tower bottom to top, the side named once for each run of
// tiers of the same side ("White Pawn and General, Black Archer"): a
// Gungi position with many towers then fits the alt text more often.
func tiers(t engine.Translator, tower []unit) string {
	var runs []string
	for i := 0; i < len(tower); {
		j := i
		var kinds []string
		for ; j < len(tower) && tower[j].side == tower[i].side; j++ {
			kinds = append(kinds, t(tower[j].kind))
		}
		runs = append(runs, t("a11y.piece", sideName(t, tower[i].side), strings.Join(kinds, t("a11y.and"))))
		i = j
	}
	return strings.Join(runs, ", ")
}

// fit joins the header and as many position parts as fit in limit
// characters; when a part does not fit, it ends with the cut notice
// instead. The header is never cut unless it alone is too long.
func fit(t engine.Translator, head []string, parts []part, limit int) string {
	var sb strings.Builder
	add := func(s string) {
		if sb.Len() > 0 {
			sb.WriteByte(' ')
		}
		sb.WriteString(s)
	}
	for _, h := range head {
		add(h)
	}
	full := sb.String()
	for _, p := range parts {
		full += " " + p.text
	}
	if utf8.RuneCountInString(full) <= limit {
		return full
	}
	cut := t("a11y.cut")
	room := limit - utf8.RuneCountInString(cut) - 1
	if utf8.RuneCountInString(sb.String()) > room {
		return truncate(sb.String(), room) + " " + cut
	}
	for _, p := range parts {
		if utf8.RuneCountInString(sb.String())+1+utf8.RuneCountInString(p.text) > room {
			break
		}
		add(p.text)
	}
	add(cut)
	return sb.String()
}

// truncate cuts s to at most n characters, ending in "…".
func truncate(s string, n int) string {
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	r := []rune(s)
	return string(r[:max(0, n-1)]) + "…"
}

// Complete reports whether an alt text holds the whole position (it was
// not cut).
func Complete(locale, alt string) bool {
	return !strings.HasSuffix(alt, tr(locale)("a11y.cut"))
}

// TextBoard is the position as text for the text mode: a line saying
// whose turn it is (or the result), one line per rank that holds
// anything, from the top, naming every occupied square in words
// (obstacles too), then the towers, hands and draft. No drawing: a
// screen reader reads it line by line.
func TextBoard(locale string, pos engine.Position) (string, error) {
	t := tr(locale)
	bd, err := adapt(pos)
	if err != nil {
		return "", err
	}
	var lines []string
	if o := pos.Status(); o.Over() {
		lines = append(lines, result(t, o))
	} else {
		lines = append(lines, t("a11y.turn", sideName(t, pos.Turn())))
	}
	byRank := map[int][]string{}
	for _, o := range bd.occupants() {
		var what string
		switch {
		case o.obstacle:
			what = t("a11y.obstacle")
		case len(o.tower) == 1:
			what = unitName(t, o.tower[0])
		default:
			what = t("a11y.tower.short", tiers(t, o.tower))
		}
		byRank[o.rank] = append(byRank[o.rank], o.square+" "+what)
	}
	for r := bd.ranks() - 1; r >= 0; r-- {
		if len(byRank[r]) > 0 {
			lines = append(lines, t("a11y.rank", strconv.Itoa(r+1), strings.Join(byRank[r], "; ")))
		}
	}
	lines = append(lines, bd.extras(t)...)
	return strings.Join(lines, "\n"), nil
}

// Where lists side's pieces of the kind a player typed (its name in
// locale or English, or its letter or code: "HT", "h", "knight"); an empty
// kind lists every piece of the side. Towers count by their top piece.
func Where(locale string, pos engine.Position, side engine.Side, kind string) (string, error) {
	t := tr(locale)
	bd, err := adapt(pos)
	if err != nil {
		return "", err
	}
	occ := bd.occupants()
	var want string
	if kind = strings.TrimSpace(kind); kind != "" {
		if want = matchKind(locale, bd.kinds(), kind); want == "" {
			return "", fmt.Errorf("%s", t("a11y.q.nokind", kind))
		}
	}
	var items []string
	for _, o := range occ {
		if o.obstacle || o.top().side != side || want != "" && o.top().kind != want {
			continue
		}
		u := o.top()
		item := o.square
		if want == "" || u.wreck {
			name := t(u.kind)
			if u.wreck {
				name = t("a11y.wreck", name)
			}
			item = t("a11y.group", name, o.square)
		}
		if u.facing != "" {
			item = t("a11y.facing", item, t(u.facing))
		}
		items = append(items, item)
	}
	what := sideName(t, side)
	if want != "" {
		what = t("a11y.piece", what, t(want))
	}
	if len(items) == 0 {
		return t("a11y.q.none", what), nil
	}
	return t("a11y.q.where", what, strings.Join(items, ", ")), nil
}

// matchKind is the catalog key of the game's kind a player typed: its
// name in locale or English, its short name ("HT", "CLT") or its letter in
// the notation ("H", "R", "P"); "" if none.
func matchKind(locale string, kinds []kindName, typed string) string {
	typed = strings.ToLower(typed)
	for _, k := range kinds {
		short := k.key[strings.LastIndex(k.key, ".")+1:]
		for _, name := range []string{i18n.T(locale, k.key), i18n.T(i18n.English, k.key), short, k.letter} {
			if strings.ToLower(name) == typed {
				return k.key
			}
		}
	}
	return ""
}

// Square says what is on a square, or that it is empty.
func Square(locale string, pos engine.Position, sq string) (string, error) {
	t := tr(locale)
	bd, err := adapt(pos)
	if err != nil {
		return "", err
	}
	name := bd.normSquare(sq)
	if name == "" {
		return "", fmt.Errorf("%s", t("a11y.q.nosquare", sq))
	}
	for _, o := range bd.occupants() {
		if o.square != name {
			continue
		}
		switch {
		case o.obstacle:
			return name + " " + t("a11y.obstacle"), nil
		case len(o.tower) == 1:
			return name + " " + unitName(t, o.tower[0]), nil
		}
		return t("a11y.tower", name, tiers(t, o.tower)), nil
	}
	return t("a11y.q.empty", name), nil
}

// Attackers names, for either side, the pieces that could capture or
// shoot on a square if it were that side's turn: the side to move's from
// its legal moves, the other side's from the same position with the turn
// passed to it.
func Attackers(locale string, pos engine.Position, sq string) (string, error) {
	t := tr(locale)
	bd, err := adapt(pos)
	if err != nil {
		return "", err
	}
	name := bd.normSquare(sq)
	if name == "" {
		return "", fmt.Errorf("%s", t("a11y.q.nosquare", sq))
	}
	var lines []string
	for _, s := range []engine.Side{pos.Turn(), pos.Turn().Opponent()} {
		p := pos
		if s != pos.Turn() {
			if p = withTurn(pos, s); p == nil {
				continue
			}
		}
		pb, err := adapt(p)
		if err != nil {
			return "", err
		}
		occ := map[string]occupant{}
		for _, o := range pb.occupants() {
			occ[o.square] = o
		}
		var from []string
		seen := map[string]bool{}
		for _, m := range p.LegalMoves() {
			if f, ok := pb.strikes(m, name); ok && !seen[f] {
				seen[f] = true
				from = append(from, f+" "+unitName(t, occ[f].top()))
			}
		}
		if len(from) == 0 {
			lines = append(lines, t("a11y.q.attackers.none", sideName(t, s), name))
		} else {
			lines = append(lines, t("a11y.q.attackers", sideName(t, s), name, strings.Join(from, ", ")))
		}
	}
	return strings.Join(lines, "\n"), nil
}

// withTurn is pos with the other side to move, through its encoding (the
// side is the second field of TFEN, CFEN and GFEN); nil if that is not a
// position.
func withTurn(pos engine.Position, s engine.Side) engine.Position {
	f := strings.Fields(pos.Encode())
	if len(f) < 2 {
		return nil
	}
	f[1] = s.Letter()
	p, err := pos.Rules().Decode(strings.Join(f, " "))
	if err != nil {
		return nil
	}
	return p
}

// Moves lists the legal moves of the piece on a square (the side to
// move's), in notation.
func Moves(locale string, pos engine.Position, sq string) (string, error) {
	t := tr(locale)
	bd, err := adapt(pos)
	if err != nil {
		return "", err
	}
	name := bd.normSquare(sq)
	if name == "" {
		return "", fmt.Errorf("%s", t("a11y.q.nosquare", sq))
	}
	var ms []string
	for _, m := range pos.LegalMoves() {
		if bd.from(m) == name {
			ms = append(ms, pos.FormatMove(m))
		}
	}
	if len(ms) == 0 {
		return t("a11y.q.moves.none", name), nil
	}
	return t("a11y.q.moves", name, strconv.Itoa(len(ms)), strings.Join(ms, ", ")), nil
}

// Standing is one line of a standings table.
type Standing struct {
	Rank   int
	Name   string
	Points string // as the table shows them ("2.5")
	Games  int
}

// Standings is a standings table as a numbered list, one line per
// player, cut to limit characters (0: no limit) with the cut notice.
func Standings(locale, title string, rows []Standing, limit int) string {
	t := tr(locale)
	lines := []string{title}
	for _, r := range rows {
		lines = append(lines, t("a11y.standing", strconv.Itoa(r.Rank), r.Name, r.Points, strconv.Itoa(r.Games)))
	}
	s := strings.Join(lines, "\n")
	if limit <= 0 || utf8.RuneCountInString(s) <= limit {
		return s
	}
	more := t("a11y.standings.more")
	var sb strings.Builder
	sb.WriteString(title)
	for _, l := range lines[1:] {
		if utf8.RuneCountInString(sb.String())+1+utf8.RuneCountInString(l)+1+utf8.RuneCountInString(more) > limit {
			break
		}
		sb.WriteString("\n" + l)
	}
	return truncate(sb.String(), limit-1-utf8.RuneCountInString(more)) + "\n" + more
}
