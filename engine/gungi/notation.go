package gungi

import (
	"sort"
	"strconv"
	"strings"

	"github.com/tankbot/tankbot/engine"
)

// FormatMove writes m in canonical notation.
func (p *Position) FormatMove(m engine.Move) string {
	switch mv := m.(type) {
	case Move:
		return mv.String()
	case *Move:
		if mv != nil {
			return mv.String()
		}
	}
	return "?"
}

// written is what a player wrote, with the parts it left out zero.
type written struct {
	kind  MoveKind // 0: not said (board move without separator)
	piece Kind     // None: not said
	from  Square   // NoSquare for drops
	to    Square
}

// cutSuffix splits off what follows a move's last square: nothing, or the
// check mark a player may append (+ check, # checkmate). Anything else
// there ("++", "+-+-", "zz") is refused by name rather than as bad syntax.
func cutSuffix(s string) (string, *engine.Error) {
	end := strings.LastIndexAny(s, "0123456789") + 1
	if end == 0 {
		return s, nil // no square at all: parseWritten says why
	}
	switch mark := strings.Join(strings.Fields(s[end:]), ""); mark {
	case "", "+", "#":
		return s[:end], nil
	default:
		return "", errorf(CodeSuffix, strconv.Quote(mark))
	}
}

// parseWritten reads the notation of §8 forgivingly: any case, spaces,
// the piece letter and the separator optional. The check mark is cut off
// before (cutSuffix).
func parseWritten(s string) (written, bool) {
	var t []byte
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c == ' ' || c == '\t':
		case c >= 'A' && c <= 'Z':
			t = append(t, c+'a'-'A')
		default:
			t = append(t, c)
		}
	}
	w := written{from: NoSquare, to: NoSquare}
	if len(t) >= 3 && t[len(t)-3] == '*' || len(t) == 4 && t[1] == '*' {
		// drop: [letter]*square
		star := len(t) - 3
		if star == 1 {
			if w.piece = KindOf(t[0]); w.piece == None {
				return w, false
			}
		} else if star != 0 {
			return w, false
		}
		to, ok := ParseSquare(string(t[star+1:]))
		w.kind, w.to = KindDrop, to
		return w, ok
	}
	// board move: [letter]square[sep]square
	if len(t) >= 5 && (t[0] < 'a' || t[0] > 'i' || t[1] < '1' || t[1] > '9') {
		if w.piece = KindOf(t[0]); w.piece == None {
			return w, false
		}
		t = t[1:]
	}
	if len(t) < 4 {
		return w, false
	}
	from, ok1 := ParseSquare(string(t[:2]))
	to, ok2 := ParseSquare(string(t[len(t)-2:]))
	switch string(t[2 : len(t)-2]) {
	case "":
	case "-", ":":
		w.kind = KindMove
	case "x":
		w.kind = KindAttack
	case "^":
		w.kind = KindStack
	default:
		return w, false
	}
	w.from, w.to = from, to
	return w, ok1 && ok2
}

func (w written) matches(m Move) bool {
	if w.kind == KindDrop {
		return m.Kind == KindDrop && m.To == w.to && (w.piece == None || w.piece == m.Piece)
	}
	return m.Kind != KindDrop && m.Kind != KindReady && m.From == w.from && m.To == w.to &&
		(w.kind == 0 || w.kind == m.Kind) && (w.piece == None || w.piece == m.Piece)
}

// ParseMove reads a move (§8). It fails with an *engine.Error saying why
// and listing close legal alternatives.
func (p *Position) ParseMove(s string) (engine.Move, error) {
	m, err := p.parseMove(s)
	if err != nil {
		return nil, err
	}
	return m, nil
}

func (p *Position) parseMove(s string) (Move, error) {
	legal := p.legalMoves()
	trimmed := strings.ToLower(strings.TrimSpace(s))
	if trimmed == "ready" {
		if p.isLegalIn(legal, ReadyMove) {
			return ReadyMove, nil
		}
		return Move{}, p.withAlternatives(p.explain(ReadyMove), legal, ReadyMove)
	}
	if name, ok := strings.CutPrefix(trimmed, "ready:"); ok {
		i := formationIndex(strings.TrimSpace(name))
		if i < 0 {
			return Move{}, errorf(CodeFormationUnknown, name, formationNames())
		}
		if _, err := p.CompleteDraft(p.turn, Formations[i].Name); err != nil {
			return Move{}, err
		}
		return Move{Kind: KindComplete, Piece: Kind(i), From: NoSquare, To: NoSquare}, nil
	}
	body, serr := cutSuffix(s)
	if serr != nil {
		return Move{}, serr
	}
	w, ok := parseWritten(body)
	if !ok {
		return Move{}, errorf(CodeSyntax, strconv.Quote(strings.TrimSpace(s)))
	}
	var found []Move
	for _, m := range legal {
		if w.matches(m) {
			found = append(found, m)
		}
	}
	switch len(found) {
	case 1:
		return found[0], nil
	case 0:
	default:
		e := errorf(CodeAmbiguous, strings.TrimSpace(s))
		for _, m := range found {
			e.Alternatives = append(e.Alternatives, m.String())
		}
		return Move{}, e
	}
	// Nothing legal matches: say why, from the most likely intended move.
	guess := Move{Kind: w.kind, Piece: w.piece, From: w.from, To: w.to}
	if w.kind != KindDrop {
		if t := p.top(w.from); t != 0 && guess.Piece == None {
			guess.Piece = t.kind()
		}
		if guess.Kind == 0 {
			switch t := p.top(w.to); {
			case t == 0:
				guess.Kind = KindMove
			case t.side() != p.turn:
				guess.Kind = KindAttack
			default:
				guess.Kind = KindStack
			}
		}
	}
	var e *engine.Error
	if guess.Piece == None {
		e = errorf(CodeNoSuchMove, strings.TrimSpace(s))
	} else {
		e = p.explain(guess)
	}
	return Move{}, p.withAlternatives(e, legal, guess)
}

func (p *Position) isLegalIn(legal []Move, m Move) bool {
	for _, l := range legal {
		if l == m {
			return true
		}
	}
	return false
}

// withAlternatives adds up to 5 legal moves close to the intended one: same
// origin and target first, then same origin or same dropped kind, then same
// target, nearest first.
func (p *Position) withAlternatives(e *engine.Error, legal []Move, want Move) *engine.Error {
	type scored struct {
		m     Move
		score int
	}
	var c []scored
	for _, m := range legal {
		sc := 0
		if m.To == want.To && want.To != NoSquare {
			sc += 4
		}
		if m.Kind != KindDrop && m.From == want.From && want.From != NoSquare {
			sc += 6
		}
		if m.Kind == KindDrop && want.Kind == KindDrop && (want.Piece == None || m.Piece == want.Piece) {
			sc += 5
		}
		if m.Piece == want.Piece && want.Piece != None {
			sc++
		}
		if sc == 0 {
			continue
		}
		if want.To != NoSquare && m.To != NoSquare {
			sc = sc*100 - max(abs(m.To.File()-want.To.File()), abs(m.To.Rank()-want.To.Rank()))
		} else {
			sc *= 100
		}
		c = append(c, scored{m, sc})
	}
	sort.SliceStable(c, func(i, j int) bool { return c[i].score > c[j].score })
	for i := 0; i < len(c) && i < 5; i++ {
		e.Alternatives = append(e.Alternatives, c[i].m.String())
	}
	return e
}

// explain says why the (illegal) move m cannot be played.
func (p *Position) explain(m Move) *engine.Error {
	us, them := p.turn, p.turn.Opponent()
	if !p.hasLegal() {
		return errorf(CodeGameOver)
	}
	draft := p.InDraft()
	switch m.Kind {
	case KindReady:
		switch {
		case !draft:
			return errorf(CodeReadyNotDraft)
		case p.marshal[us] == NoSquare:
			return errorf(CodeReadyNoMarshal)
		case p.inCheck(us):
			return errorf(CodeSelfCheck)
		}
	case KindDrop:
		if m.Piece <= None || m.Piece >= numKinds || m.To < 0 || m.To > 80 {
			break
		}
		zone := !inHome(them, m.To.Rank())
		if draft {
			zone = inHome(us, m.To.Rank())
		}
		th := p.h[m.To]
		switch {
		case p.hand[us][m.Piece] == 0:
			return errorf(CodeNotInHand, m.Piece.String())
		case draft && p.hand[us][Marshal] > 0 && m.Piece != Marshal:
			return errorf(CodeMarshalFirst)
		case draft && !zone:
			return errorf(CodeDraftZone, m.To.String())
		case !zone:
			return errorf(CodeDropZone, m.To.String())
		case p.onBoard[us] >= MaxOnBoard:
			return errorf(CodeDropLimit)
		case th >= 3:
			return errorf(CodeTowerFull, m.To.String())
		case th > 0 && p.top(m.To).kind() == Marshal:
			return errorf(CodeOntoMarshal, m.To.String())
		case th > 0 && m.Piece == Fortress:
			return errorf(CodeFortressStack)
		case m.Piece == Pawn && p.pawnFiles(us)[m.To.File()]:
			return errorf(CodePawnFile, string(rune('a'+m.To.File())))
		}
		next := *p
		next.apply(m)
		switch {
		case next.inCheck(us):
			return errorf(CodeSelfCheck)
		case draft && p.ready[them] && p.marshal[them] != NoSquare && next.attacks(m.To, p.marshal[them]):
			return errorf(CodeDraftCheck)
		case !draft && m.Piece == Pawn && p.dropGivesMate(m):
			return errorf(CodePawnDropMate)
		}
	case KindMove, KindAttack, KindStack:
		if draft {
			return errorf(CodeDraftOnly)
		}
		if m.From < 0 || m.From > 80 || m.To < 0 || m.To > 80 {
			break
		}
		t := p.top(m.From)
		if t == 0 || t.side() != us {
			return errorf(CodeNoPiece, m.From.String())
		}
		if m.Piece != None && t.kind() != m.Piece {
			return errorf(CodeWrongPiece, m.From.String(), t.kind().String(), m.Piece.String())
		}
		if !p.reachable(m.From, m.To) {
			return errorf(CodeOutOfReach, t.kind().String(), m.From.String(), m.To.String(), strconv.Itoa(int(p.h[m.From])))
		}
		th := p.h[m.To]
		tt := p.top(m.To)
		switch m.Kind {
		case KindMove:
			if th > 0 {
				return errorf(CodeOccupied, m.To.String())
			}
		case KindAttack:
			switch {
			case th == 0 || tt.side() != them:
				return errorf(CodeNoEnemy, m.To.String())
			case t.kind() == Fortress && th > 1:
				return errorf(CodeFortressAttack, m.To.String())
			}
		case KindStack:
			switch {
			case th == 0:
				return errorf(CodeNothingToStack, m.To.String())
			case th >= 3:
				return errorf(CodeTowerFull, m.To.String())
			case tt.kind() == Marshal:
				return errorf(CodeOntoMarshal, m.To.String())
			case t.kind() == Fortress:
				return errorf(CodeFortressStack)
			}
		}
		next := *p
		next.apply(m)
		if next.inCheck(us) {
			return errorf(CodeSelfCheck)
		}
	}
	return errorf(CodeNoSuchMove, m.String())
}
