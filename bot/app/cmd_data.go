package app

import (
	"context"
	"encoding/json"
	"strconv"
	"strings"

	"github.com/tankbot/tankbot/bot/i18n"
	"github.com/tankbot/tankbot/store"
)

// /data: a player's own data (README, Privacy): export sends everything
// stored about them as a JSON file; delete, after a confirmation, erases
// their profile and ratings and replaces them by "deleted player" in the
// games others keep (store.DeleteUser). Both answer the caller alone, and
// act only on the caller: the confirmation buttons carry no user id.

const dataPrefix = "pd"

var dataCmd = command{
	name: "data",
	doc: "Your data. `request`: `export` (a JSON file of everything stored about you, just for you) or `delete` " +
		"(after a private confirmation: your profile and ratings go, your name becomes \"deleted player\" in games others keep).",
	opts: []optDef{{name: "request", typ: String, required: true, choices: dataChoices}},
	run:  (*Bot).dataCommand,
	routes: []route{{prefix: dataPrefix, format: "pd:<answer>", doc: "Delete (`yes`) / Cancel (`no`) of `/data request:delete`: only the clicker's own data.",
		run: (*Bot).dataConfirm}},
}

func dataChoices() []Choice {
	var out []Choice
	for _, v := range []string{"export", "delete"} {
		out = append(out, Choice{Name: i18n.T(i18n.English, "data.choice."+v), Value: v, NameLocalizations: localized("data.choice." + v)})
	}
	return out
}

func (b *Bot) dataCommand(ctx context.Context, r *req) ([]Reply, error) {
	switch strings.ToLower(strings.TrimSpace(r.Options["request"])) {
	case "export":
		d, err := b.st.ExportUser(ctx, r.User.ID)
		if err != nil {
			return nil, wrap("export user", err)
		}
		body, err := json.MarshalIndent(d, "", "  ")
		if err != nil {
			return nil, wrap("export user", err)
		}
		return []Reply{{Ephemeral: true, Content: r.t("data.exported", strconv.Itoa(len(d.Games)), strconv.Itoa(len(d.Ratings))),
			Files:        []File{{Name: "tankbot-data-" + r.User.ID + ".json", ContentType: "application/json", Data: append(body, '\n')}},
			FallbackText: r.t("data.toolarge")}}, nil
	case "delete":
		return []Reply{{
			Ephemeral: true,
			Content:   r.t("data.confirm", store.DeletedPlayer),
			Components: [][]Component{{
				{Kind: Button, CustomID: dataPrefix + ":yes", Label: r.t("data.btn.delete"), Style: Danger},
				{Kind: Button, CustomID: dataPrefix + ":no", Label: r.t("btn.cancel"), Style: Secondary},
			}},
		}}, nil
	}
	return nil, refuse("data.badrequest", r.Options["request"])
}

// dataConfirm answers the confirmation: the clicker's data goes, or
// nothing happens.
func (b *Bot) dataConfirm(ctx context.Context, r *req) ([]Reply, error) {
	switch r.CustomID {
	case dataPrefix + ":no":
		return []Reply{{Ephemeral: true, Update: true, Content: r.t("confirm.kept")}}, nil
	case dataPrefix + ":yes":
		e, err := b.st.DeleteUser(ctx, r.User.ID, ErasureScrub())
		if err != nil {
			return nil, wrap("delete user", err)
		}
		// The settings just erased must not come back from the cache.
		b.seen.Delete(r.User.ID)
		return []Reply{{Ephemeral: true, Update: true, Content: r.t("data.deleted", strconv.FormatInt(e.Games, 10), strconv.FormatInt(e.Aborted, 10))}}, nil
	}
	return nil, refuse("refuse.unknown")
}
