package app

import (
	"context"
	"strings"

	"github.com/tankbot/tankbot/bot/i18n"
)

// /rules: a game's summary with a start position drawn.

var rulesCmd = command{
	name: "rules",
	doc:  "A short summary, the piece table and the notation, with a start position as an image.",
	opts: []optDef{{name: "game", typ: String, choices: gameChoices}},
	run:  (*Bot).rulesCommand,
}

// rulesCommand gives a short summary of a game with its start position.
func (b *Bot) rulesCommand(ctx context.Context, r *req) ([]Reply, error) {
	name := strings.ToLower(strings.TrimSpace(r.Options["game"]))
	if name == "" {
		name = defaultGame()
	}
	rules, ok := lookupGame(name)
	if !ok {
		return nil, refuse("refuse.unknowngame", name, strings.Join(gameNames(), ", "))
	}
	key := "rules." + rules.Name()
	if !i18n.Has(key) {
		return []Reply{{Ephemeral: true, Content: r.t("rules.unknown", rules.Name())}}, nil
	}
	text := r.t(key)
	if i18n.Has(key + ".more") {
		// The piece table and the notation.
		text += "\n\n" + r.t(key+".more")
	}
	reply := Reply{Ephemeral: true, Content: clipRunes(text, 2000)}
	if vs := rules.Variants(); len(vs) > 0 {
		// The first variant's start, unless the game shows off another
		// (a draft on an empty board shows a formation).
		example := vs[0].Name
		if sc := describe(rules.Name()).Showcase; sc != "" {
			example = sc
		}
		if p, err := rules.Start(example); err == nil {
			if png, err := renderPNG(p, nil, false, r.loc, nil); err == nil {
				reply.Files = []File{{Name: "rules-" + rules.Name() + ".png", ContentType: "image/png", Data: png, Description: positionAlt(r.loc, rules.Name(), p, nil, nil)}}
			}
		}
	}
	return []Reply{reply}, nil
}
