// Package movepick is the state machine of the guided move picker: a player
// who does not want to type a move chooses the piece, then where it goes,
// then the details (facing, target, route, action), then confirms, through
// Discord select menus and buttons.
//
// The package is pure: it knows engine positions and nothing of Discord or
// storage. It is stateless too: the whole picker state is a short string
// (see State) that travels in the component's custom id, next to the ply
// that pins the position. The bot calls Open with the position and the
// state of the clicked component, and renders the Menu it gets back.
//
// The menus follow engine.Move.Steps: level k of the picker offers the
// distinct k-th steps of the legal moves that agree with the choices made so
// far, so every option leads to at least one legal move. A level with a
// single option is chosen automatically (it is listed in Menu.Chosen with
// Auto set), and the picker is complete as soon as the choices leave one
// legal move.
package movepick

import (
	"fmt"
	"slices"

	"github.com/tankbot/tankbot/bot/i18n"
	"github.com/tankbot/tankbot/engine"
)

// MaxOptions is the most options a Discord select menu holds.
const MaxOptions = 25

// pageItems is the most move options on one page when a level needs pages,
// leaving room for the "previous" and "more" options.
const pageItems = MaxOptions - 2

// Navigation kinds of an Option.
const (
	NavNone = 0  // a choice
	NavPrev = -1 // shows the previous page of the same level
	NavNext = 1  // shows the next page of the same level
)

// Menu is what the bot shows for one picker state.
type Menu struct {
	Game   string // the game's name, "tank", "camelot", "gungi"
	Level  int    // the step level the options choose (0 = the piece)
	Prompt string // what the options choose: see Prompts; "confirm" when complete

	// Chosen lists the choices made so far, most general first, including
	// the automatic ones. When complete it also lists the remaining
	// (automatic) non-empty steps of the move, for a summary line.
	Chosen []Choice

	// Options are the entries of the select menu, in order: 1 to
	// MaxOptions of them, none when complete. A level with more than
	// MaxOptions options is split into pages of at most 23 options in
	// sorted order, with a NavPrev option first (except on the first page)
	// and a NavNext option last (except on the last page).
	Options []Option
	Page    int // the page shown, 0-based
	Pages   int // pages of this level (1 when it fits one menu)

	// State is the encoded state of this menu, with the automatic choices
	// included. Put it in the custom id of the menu's components.
	State string
	// Back is the state one real choice back (automatic choices are
	// dropped with it); meaningful only when CanBack.
	Back    string
	CanBack bool

	// Move is the chosen legal move when the picker is complete (nil
	// before); Notation is its canonical notation. The bot then shows a
	// Confirm button carrying State, and plays Move when it is clicked.
	Move     engine.Move
	Notation string
}

// Complete reports whether the choices pin down one legal move.
func (m *Menu) Complete() bool { return m.Move != nil }

// Choice is one step already chosen.
type Choice struct {
	Step  string // the engine's step (notation; "" means none)
	Label string // player-friendly label
	Auto  bool   // chosen automatically: it was the only option
}

// Option is one entry of a select menu.
type Option struct {
	Label string // short player-friendly label (at most 100 characters)
	Step  string // the engine's step it chooses; "" for navigation
	Nav   int    // NavNone, NavPrev or NavNext
	Moves int    // legal moves behind this choice (0 for navigation)
	// State is the state after selecting this option: use it as the
	// select option's value and pass it back to Open. It is at most
	// MaxStateLen characters and unique within the menu.
	State string
}

// PieceNamer is implemented by positions that name the piece on a square,
// "HT" for "C3" (tank.Position); the picker then labels pieces "HT C3".
type PieceNamer interface {
	PieceName(square string) string
}

// picker holds one position's legal moves split into steps.
type picker struct {
	pos   engine.Position
	moves []engine.Move
	steps [][]string
	depth int // the most steps of any move
	sty   *style
	loc   string // the catalog locale of the labels
}

func newPicker(pos engine.Position, loc string) (*picker, error) {
	if pos == nil {
		return nil, fmt.Errorf("%w: no position", ErrNoMoves)
	}
	moves := pos.LegalMoves()
	if len(moves) == 0 {
		return nil, ErrNoMoves
	}
	p := &picker{pos: pos, moves: moves, steps: make([][]string, len(moves)), sty: styleFor(pos), loc: loc}
	for i, m := range moves {
		st := m.Steps()
		p.steps[i] = st
		p.depth = max(p.depth, len(st))
	}
	return p, nil
}

// step is the k-th step of move i; moves with fewer steps read "" (none)
// beyond their end, so that all moves have the same depth.
func (p *picker) step(i int32, k int) string {
	if st := p.steps[i]; k < len(st) {
		return st[k]
	}
	return ""
}

// level lists the distinct k-th steps of the moves in set, sorted, with the
// subset of moves behind each.
func (p *picker) level(set []int32, k int) ([]string, [][]int32) {
	idx := make(map[string]int, 16)
	var vals []string
	var groups [][]int32
	for _, i := range set {
		s := p.step(i, k)
		j, ok := idx[s]
		if !ok {
			j = len(vals)
			idx[s] = j
			vals = append(vals, s)
			groups = append(groups, nil)
		}
		groups[j] = append(groups[j], i)
	}
	order := make([]int, len(vals))
	for i := range order {
		order[i] = i
	}
	slices.SortFunc(order, func(a, b int) int { return p.sty.compare(k, vals[a], vals[b]) })
	sv := make([]string, len(vals))
	sg := make([][]int32, len(vals))
	for i, o := range order {
		sv[i], sg[i] = vals[o], groups[o]
	}
	return sv, sg
}

// Open returns the menu for an encoded state ("" for the first menu) of the
// picker on pos, labelled in the catalog locale loc. Bad states give errors
// wrapping ErrMalformed or ErrStale, never a panic; a position without
// legal moves gives ErrNoMoves.
func Open(pos engine.Position, state, loc string) (*Menu, error) {
	st, err := Decode(state)
	if err != nil {
		return nil, err
	}
	p, err := newPicker(pos, loc)
	if err != nil {
		return nil, err
	}
	return p.open(st)
}

// StateOf returns the state whose menu is complete with move m, a legal
// move of pos (matched by its Steps).
func StateOf(pos engine.Position, m engine.Move) (string, error) {
	if m == nil {
		return "", fmt.Errorf("%w: no move", ErrStale)
	}
	p, err := newPicker(pos, "")
	if err != nil {
		return "", err
	}
	want := m.Steps()
	set := p.all()
	var st State
	for k := 0; len(set) > 1; k++ {
		if k >= p.depth {
			return "", ErrSteps
		}
		s := ""
		if k < len(want) {
			s = want[k]
		}
		vals, groups := p.level(set, k)
		j := slices.Index(vals, s)
		if j < 0 {
			return "", fmt.Errorf("%w: move %v is not legal here", ErrStale, want)
		}
		st.Choices = append(st.Choices, j)
		set = groups[j]
	}
	for k := len(st.Choices); k < len(want); k++ {
		if p.step(set[0], k) != want[k] {
			return "", fmt.Errorf("%w: move %v is not legal here", ErrStale, want)
		}
	}
	return st.Encode(), nil
}

func (p *picker) all() []int32 {
	set := make([]int32, len(p.moves))
	for i := range set {
		set[i] = int32(i)
	}
	return set
}

func (p *picker) open(st State) (*Menu, error) {
	menu := &Menu{Game: p.pos.Rules().Name()}
	set := p.all()
	choices := slices.Clone(st.Choices)
	var steps []string
	var vals []string
	var groups [][]int32
	k := 0
	for {
		if len(set) == 1 {
			if st.Page != 0 {
				return nil, fmt.Errorf("%w: page %d of a complete move", ErrStale, st.Page+1)
			}
			if k < len(choices) {
				// Extra choices past completion are fine only while they
				// are the single option of each padded level.
				for j := k; j < len(choices); j++ {
					if j >= p.depth || choices[j] != 0 {
						return nil, fmt.Errorf("%w: choice %d after the move was complete", ErrStale, j+1)
					}
				}
			}
			break
		}
		if k >= p.depth {
			return nil, fmt.Errorf("%w after %v", ErrSteps, steps)
		}
		vals, groups = p.level(set, k)
		if k >= len(choices) {
			if len(vals) > 1 {
				break
			}
			choices = append(choices, 0) // the only option: choose it
		}
		c := choices[k]
		if c >= len(vals) {
			return nil, fmt.Errorf("%w: choice %d is option %d of %d", ErrStale, k+1, c+1, len(vals))
		}
		menu.Chosen = append(menu.Chosen, Choice{Step: vals[c], Label: p.sty.label(p.loc, p.pos, k, steps, vals[c]), Auto: len(vals) == 1})
		steps = append(steps, vals[c])
		set = groups[c]
		k++
	}
	menu.Level = k
	menu.State = State{Choices: choices}.Encode()
	menu.Back, menu.CanBack = back(choices, menu.Chosen)

	if len(set) == 1 {
		// Complete: list the rest of the move's steps for the summary.
		mv := p.moves[set[0]]
		for j := len(menu.Chosen); j < len(p.steps[set[0]]); j++ {
			s := p.steps[set[0]][j]
			if s != "" {
				menu.Chosen = append(menu.Chosen, Choice{Step: s, Label: p.sty.label(p.loc, p.pos, j, steps, s), Auto: true})
			}
			steps = append(steps, s)
		}
		menu.Prompt = "confirm"
		menu.Move = mv
		menu.Notation = p.pos.FormatMove(mv)
		menu.Pages = 1
		return menu, nil
	}

	menu.Prompt = p.sty.prompt(k)
	pages := 1
	if len(vals) > MaxOptions {
		pages = (len(vals) + pageItems - 1) / pageItems
	}
	if st.Page >= pages || (st.Page != 0 && k != len(st.Choices)) {
		return nil, fmt.Errorf("%w: page %d of a menu with %d pages", ErrStale, st.Page+1, pages)
	}
	menu.Page, menu.Pages = st.Page, pages
	// Pages share the options evenly so the last one is not nearly empty.
	per := (len(vals) + pages - 1) / pages
	lo, hi := st.Page*per, min((st.Page+1)*per, len(vals))
	label := func(i int) string { return p.sty.label(p.loc, p.pos, k, steps, vals[i]) }
	if st.Page > 0 {
		plo, phi := (st.Page-1)*per, st.Page*per
		menu.Options = append(menu.Options, Option{
			Label: clip(i18n.T(p.loc, "movepick.prev", label(plo), label(phi-1))),
			Nav:   NavPrev,
			State: State{Choices: choices, Page: st.Page - 1}.Encode(),
		})
	}
	next := make([]int, len(choices)+1)
	copy(next, choices)
	for i := lo; i < hi; i++ {
		next[len(choices)] = i
		menu.Options = append(menu.Options, Option{
			Label: clip(label(i)),
			Step:  vals[i],
			Moves: len(groups[i]),
			State: State{Choices: next}.Encode(),
		})
	}
	if st.Page < pages-1 {
		nlo, nhi := hi, min(hi+per, len(vals))
		menu.Options = append(menu.Options, Option{
			Label: clip(i18n.T(p.loc, "movepick.more", label(nlo), label(nhi-1))),
			Nav:   NavNext,
			State: State{Choices: choices, Page: st.Page + 1}.Encode(),
		})
	}
	return menu, nil
}

// back drops the last real choice and the automatic ones after it.
func back(choices []int, chosen []Choice) (string, bool) {
	for i := len(chosen) - 1; i >= 0; i-- {
		if !chosen[i].Auto {
			return State{Choices: choices[:i]}.Encode(), true
		}
	}
	return "", false
}

// clip keeps a label within Discord's 100 characters.
func clip(s string) string {
	r := []rune(s)
	if len(r) <= 100 {
		return s
	}
	return string(r[:99]) + "…"
}
