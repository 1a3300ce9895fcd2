package app

import (
	"context"
	"sort"
	"strconv"
	"strings"

	"github.com/tankbot/tankbot/bot/i18n"
	"github.com/tankbot/tankbot/bot/names"
	"github.com/tankbot/tankbot/bot/view"
	"github.com/tankbot/tankbot/engine"
)

func SuggestMove(b *Bot, ctx context.Context, r *Req, typed string) []view.Choice {
	g, err := b.FindGame(ctx, r)
	if err != nil {
		return nil
	}
	return b.suggestMoves(r, g, typed)
}

// suggestActiveGames offers the caller's active games of this server.
func suggestActiveGames(b *Bot, ctx context.Context, r *Req, typed string) []view.Choice {
	return b.suggestGames(ctx, r, typed, false)
}

// suggestAnyGames also offers the caller's latest finished games, for the
// commands that can look at one.
func suggestAnyGames(b *Bot, ctx context.Context, r *Req, typed string) []view.Choice {
	return b.suggestGames(ctx, r, typed, true)
}

func (b *Bot) suggestGames(ctx context.Context, r *Req, typed string, finished bool) (out []view.Choice) {
	games, err := b.St.ActiveGames(ctx, r.GuildID)
	if err != nil {
		return nil
	}
	if finished {
		if done, err := b.St.FinishedGames(ctx, r.GuildID, r.User.ID, 0, 10); err == nil {
			for _, a := range done {
				if g, err := fromGame(a.Game); err == nil {
					games = append(games, g)
				}
			}
		}
	}
	for _, g := range games {
		if _, ok := g.Side(r.User.ID); !ok || len(out) == MaxSuggestions {
			continue
		}
		id := g.Num() // players type the server's number
		if strings.HasPrefix(id, strings.TrimPrefix(typed, "#")) {
			out = append(out, view.Choice{Name: view.ClipRunes("#"+id+" "+view.GameLabel(r.Locale(), g.Game, g.Variant, nil)+" · "+names.PlainText(g.White.Name)+" – "+names.PlainText(g.Black.Name), 100), Value: id})
		}
	}
	return out
}

func SuggestMaps(b *Bot, ctx context.Context, r *Req, typed string) []view.Choice {
	rules, ok := LookupGame(orDefault(r.Options["game"], DefaultGame()))
	if !ok {
		return nil
	}
	var names []string
	for _, v := range rules.Variants() {
		names = append(names, v.Name)
	}
	return PrefixChoices(names, typed)
}

func SuggestClocks(b *Bot, ctx context.Context, r *Req, typed string) []view.Choice {
	return PrefixChoices(ClockPresets, typed)
}

// SuggestChallenges offers the challenges the caller may take here.
func SuggestChallenges(b *Bot, ctx context.Context, r *Req, typed string) (out []view.Choice) {
	pend, err := b.St.PendingChallenges(ctx, r.User.ID)
	if err != nil {
		return nil
	}
	for _, ch := range pend {
		if ch.Challenger.ID == r.User.ID || ch.GuildID != r.GuildID {
			continue
		}
		id := strconv.FormatInt(ch.ID, 10)
		out = append(out, view.Choice{Name: "#" + id + " " + names.PlainText(ch.Challenger.Name) + " · " + view.LabelOf(r.Locale(), ch.Game, ch.Variant, ch.Start), Value: id})
	}
	return out
}

// suggestMoves lists legal moves whose notation contains what was typed,
// likeliest first: moves of the piece on a typed square before the rest,
// moves that go somewhere before turns on the spot, prefix matches before
// others. Each is labelled with the piece it moves when the game names
// pieces ("LT · F3 > F5N").
func (b *Bot) suggestMoves(r *Req, g *Game, typed string) []view.Choice {
	pos, err := g.Position()
	if err != nil {
		return nil
	}
	return posMoves(r, pos, typed)
}

// posMoves are the legal moves of pos matching typed, best first (also
// /puzzle's, on the puzzle's position).
func posMoves(r *Req, pos engine.Position, typed string) []view.Choice {
	key := squash(typed)
	namer, _ := pos.(interface{ PieceName(string) string })
	type cand struct {
		c    view.Choice
		rank int
	}
	var cands []cand
	for _, m := range pos.LegalMoves() {
		n := pos.FormatMove(m)
		s := squash(n)
		rank := 0
		switch {
		case strings.HasPrefix(s, key):
		case strings.Contains(s, key):
			rank = 4
		default:
			continue
		}
		steps := m.Steps()
		if len(steps) > 1 && steps[0] == steps[1] {
			rank++ // a turn on the spot: after the moves that go somewhere
		}
		if len(steps) > 0 && key != "" && !strings.EqualFold(squash(steps[0]), key) {
			rank += 2 // not the piece on the typed square
		}
		label := n
		if namer != nil && len(steps) > 0 {
			if p := namer.PieceName(steps[0]); p != "" {
				label = stepsLabel(r.Locale(), p, steps)
			}
		}
		cands = append(cands, cand{view.Choice{Name: label, Value: n}, rank})
	}
	sort.SliceStable(cands, func(i, j int) bool { return cands[i].rank < cands[j].rank })
	out := make([]view.Choice, 0, MaxSuggestions)
	for _, c := range cands {
		if len(out) == MaxSuggestions {
			break
		}
		out = append(out, c.c)
	}
	return out
}

// stepsLabel writes a move of a game that names its pieces from its picker
// steps (piece square, destination, facing, target):
// "LT F3 → F5, facing N, fires at K12".
func stepsLabel(loc, piece string, steps []string) string {
	s := piece + " " + steps[0]
	if len(steps) > 1 && steps[1] != "" && steps[1] != steps[0] {
		s += " → " + steps[1]
	}
	if len(steps) > 2 && steps[2] != "" {
		s += i18n.T(loc, "suggest.facing", steps[2])
	}
	if len(steps) > 3 && steps[3] != "" {
		s += i18n.T(loc, "suggest.fires", steps[3])
	}
	return s
}

func squash(s string) string {
	return strings.Map(func(r rune) rune {
		if r == ' ' || r == '>' || r == '-' {
			return -1
		}
		if r >= 'A' && r <= 'Z' {
			return r + 'a' - 'A'
		}
		return r
	}, s)
}

func PrefixChoices(names []string, typed string) []view.Choice {
	var out []view.Choice
	for _, n := range names {
		if strings.HasPrefix(strings.ToLower(n), strings.ToLower(typed)) {
			out = append(out, view.Choice{Name: n, Value: n})
		}
	}
	if len(out) > MaxSuggestions {
		out = out[:MaxSuggestions]
	}
	return out
}

func orDefault(s, def string) string {
	if strings.TrimSpace(s) == "" {
		return def
	}
	return s
}

// MaxSuggestions is Discord's limit on autocomplete choices.
const MaxSuggestions = 25
