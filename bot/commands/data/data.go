// Package data holds /data: a player's own data (README, Privacy): export sends everything
// stored about them as a JSON file; delete, after a confirmation, erases
// their profile and ratings and replaces them by "deleted player" in the
// games others keep (store.DeleteUser). Both answer the caller alone, and
// act only on the caller: the confirmation buttons carry no user id.
package data

import (
	"context"
	"encoding/json"
	"strconv"
	"strings"

	"github.com/tankbot/tankbot/bot/app"
	"github.com/tankbot/tankbot/bot/view"

	"github.com/tankbot/tankbot/bot/i18n"
	"github.com/tankbot/tankbot/store"
)

const dataPrefix = "pd"

var Command = app.CommandDef{
	Name: "data",
	Doc: "Your data. `request`: `export` (a JSON file of everything stored about you, just for you) or `delete` " +
		"(after a private confirmation: your profile and ratings go, your name becomes \"deleted player\" in games others keep).",
	Opts: []app.OptDef{{Name: "request", Typ: app.String, Required: true, Choices: dataChoices}},
	Run:  dataCommand,
	Routes: []app.RouteDef{{Prefix: dataPrefix, Format: "pd:<answer>", Doc: "Delete (`yes`) / Cancel (`no`) of `/data request:delete`: only the clicker's own data.",
		Run: dataConfirm}},
}

func dataChoices() []view.Choice {
	var out []view.Choice
	for _, v := range []string{"export", "delete"} {
		out = append(out, view.Choice{Name: i18n.T(i18n.English, "data.choice."+v), Value: v, NameLocalizations: app.Localized("data.choice." + v)})
	}
	return out
}

func dataCommand(b *app.Bot, ctx context.Context, r *app.Req) ([]view.Reply, error) {
	switch strings.ToLower(strings.TrimSpace(r.Options["request"])) {
	case "export":
		d, err := b.St.ExportUser(ctx, r.User.ID)
		if err != nil {
			return nil, app.Wrap("export user", err)
		}
		body, err := json.MarshalIndent(d, "", "  ")
		if err != nil {
			return nil, app.Wrap("export user", err)
		}
		return []view.Reply{{Ephemeral: true, Content: r.T("data.exported", strconv.Itoa(len(d.Games)), strconv.Itoa(len(d.Ratings))),
			Files:        []view.File{{Name: "tankbot-data-" + r.User.ID + ".json", ContentType: "application/json", Data: append(body, '\n')}},
			FallbackText: r.T("data.toolarge")}}, nil
	case "delete":
		return []view.Reply{{
			Ephemeral: true,
			Content:   r.T("data.confirm", store.DeletedPlayer),
			Components: [][]view.Component{{
				{Kind: view.Button, CustomID: dataPrefix + ":yes", Label: r.T("data.btn.delete"), Style: view.Danger},
				{Kind: view.Button, CustomID: dataPrefix + ":no", Label: r.T("btn.cancel"), Style: view.Secondary},
			}},
		}}, nil
	}
	return nil, app.Refuse("data.badrequest", r.Options["request"])
}

// dataConfirm answers the confirmation: the clicker's data goes, or
// nothing happens.
func dataConfirm(b *app.Bot, ctx context.Context, r *app.Req) ([]view.Reply, error) {
	switch r.CustomID {
	case dataPrefix + ":no":
		return []view.Reply{{Ephemeral: true, Update: true, Content: r.T("confirm.kept")}}, nil
	case dataPrefix + ":yes":
		e, err := b.St.DeleteUser(ctx, r.User.ID, app.ErasureScrub())
		if err != nil {
			return nil, app.Wrap("delete user", err)
		}
		// The settings just erased must not come back from the cache.
		b.Seen.Delete(r.User.ID)
		return []view.Reply{{Ephemeral: true, Update: true, Content: r.T("data.deleted", strconv.FormatInt(e.Games, 10), strconv.FormatInt(e.Aborted, 10))}}, nil
	}
	return nil, app.Refuse("refuse.unknown")
}
