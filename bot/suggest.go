package bot

import (
	"context"
	"strconv"
	"strings"
)

// maxChoices is Discord's limit on autocomplete choices.
const maxChoices = 25

// Suggest answers autocomplete for the focused option. It never fails: on
// any problem it offers nothing.
func (b *Bot) Suggest(ctx context.Context, c Command, focused string) (out []Choice) {
	defer func() {
		if p := recover(); p != nil {
			b.log.Error("suggest panic", "panic", p)
			out = nil
		}
	}()
	r := &req{Command: c, loc: b.locale(ctx, c)}
	typed := strings.TrimSpace(c.Options[focused])
	switch focused {
	case "move":
		g, err := b.findGame(ctx, r)
		if err != nil {
			return nil
		}
		return b.suggestMoves(g, typed)
	case "game":
		if c.Name == "challenge" || c.Name == "rules" {
			return prefixChoices(gameNames(), typed)
		}
		games, err := b.st.activeGames(ctx, c.GuildID)
		if err != nil {
			return nil
		}
		for _, g := range games {
			if _, ok := g.player(c.User.ID); !ok {
				continue
			}
			id := strconv.FormatInt(g.ID, 10)
			if strings.HasPrefix(id, strings.TrimPrefix(typed, "#")) {
				out = append(out, Choice{Name: "#" + id + " " + g.White.Name + " – " + g.Black.Name, Value: id})
			}
		}
	case "map":
		rules, ok := lookupGame(orDefault(c.Options["game"], "tank"))
		if !ok {
			return nil
		}
		var names []string
		for _, v := range rules.Variants() {
			names = append(names, v.Name)
		}
		return prefixChoices(names, typed)
	case "clock":
		return prefixChoices(clockPresets, typed)
	case "challenge":
		pend, err := b.st.pendingChallenges(ctx, c.User.ID)
		if err != nil {
			return nil
		}
		for _, ch := range pend {
			if ch.Challenger.ID == c.User.ID {
				continue
			}
			id := strconv.FormatInt(ch.ID, 10)
			out = append(out, Choice{Name: "#" + id + " " + ch.Challenger.Name + " · " + ch.Game, Value: id})
		}
	}
	if len(out) > maxChoices {
		out = out[:maxChoices]
	}
	return out
}

// suggestMoves lists legal moves whose notation contains what was typed,
// prefix matches first; spaces and case do not matter.
func (b *Bot) suggestMoves(g *gameRec, typed string) []Choice {
	pos, err := g.position()
	if err != nil {
		return nil
	}
	key := squash(typed)
	var pre, mid []Choice
	for _, m := range pos.LegalMoves() {
		n := pos.FormatMove(m)
		s := squash(n)
		switch {
		case strings.HasPrefix(s, key):
			pre = append(pre, Choice{Name: n, Value: n})
		case strings.Contains(s, key):
			mid = append(mid, Choice{Name: n, Value: n})
		}
		if len(pre) >= maxChoices {
			break
		}
	}
	out := append(pre, mid...)
	if len(out) > maxChoices {
		out = out[:maxChoices]
	}
	return out
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

func prefixChoices(names []string, typed string) []Choice {
	var out []Choice
	for _, n := range names {
		if strings.HasPrefix(strings.ToLower(n), strings.ToLower(typed)) {
			out = append(out, Choice{Name: n, Value: n})
		}
	}
	if len(out) > maxChoices {
		out = out[:maxChoices]
	}
	return out
}

func orDefault(s, def string) string {
	if strings.TrimSpace(s) == "" {
		return def
	}
	return s
}
