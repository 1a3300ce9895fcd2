// Package rules holds /rules: a game's summary with a start position drawn.
package rules

import (
	"context"
	"strings"

	"github.com/tankbot/tankbot/bot/app"
	"github.com/tankbot/tankbot/bot/view"

	"github.com/tankbot/tankbot/bot/i18n"
)

var Command = app.CommandDef{
	Name: "rules",
	Doc:  "A short summary, the piece table and the notation, with a start position as an image.",
	Opts: []app.OptDef{{Name: "game", Typ: app.String, Choices: app.GameChoices}},
	Run:  rulesCommand,
}

// rulesCommand gives a short summary of a game with its start position.
func rulesCommand(b *app.Bot, ctx context.Context, r *app.Req) ([]view.Reply, error) {
	name := strings.ToLower(strings.TrimSpace(r.Options["game"]))
	if name == "" {
		name = app.DefaultGame()
	}
	rules, ok := app.LookupGame(name)
	if !ok {
		return nil, app.Refuse("refuse.unknowngame", name, strings.Join(app.GameNames(), ", "))
	}
	key := "rules." + rules.Name()
	if !i18n.Has(key) {
		return []view.Reply{{Ephemeral: true, Content: r.T("rules.unknown", rules.Name())}}, nil
	}
	text := r.T(key)
	if i18n.Has(key + ".more") {
		// The piece table and the notation.
		text += "\n\n" + r.T(key+".more")
	}
	reply := view.Reply{Ephemeral: true, Content: view.ClipRunes(text, 2000)}
	if vs := rules.Variants(); len(vs) > 0 {
		// The first variant's start, unless the game shows off another
		// (a draft on an empty board shows a formation).
		example := vs[0].Name
		if sc := app.Describe(rules.Name()).Showcase; sc != "" {
			example = sc
		}
		if p, err := rules.Start(example); err == nil {
			if png, err := view.RenderPNG(p, nil, false, r.Locale(), nil); err == nil {
				reply.Files = []view.File{{Name: "rules-" + rules.Name() + ".png", ContentType: "image/png", Data: png, Description: view.PositionAlt(r.Locale(), rules.Name(), p, nil, nil)}}
			}
		}
	}
	return []view.Reply{reply}, nil
}
