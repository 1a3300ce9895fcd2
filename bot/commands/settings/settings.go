// Package settings holds /settings: the caller's language and board orientation.
package settings

import (
	"context"
	"strings"

	"github.com/tankbot/tankbot/bot/app"
	"github.com/tankbot/tankbot/bot/view"

	"github.com/tankbot/tankbot/bot/i18n"
)

var Command = app.CommandDef{
	Name: "settings",
	Doc: "Your language (en, th, pt-BR), board orientation, text mode (boards in words, for a screen reader) and `dm_notices` " +
		"(what the bot cannot post where you play, outside servers that added it, also comes to your DM with it).",
	Opts: []app.OptDef{{Name: "language", Typ: app.String, Choices: app.LanguageChoices}, {Name: "flip", Typ: app.Bool}, {Name: "text", Typ: app.Bool},
		{Name: "dm_notices", Typ: app.Bool}},
	Run: settingsCommand,
}

// settingsCommand stores the caller's language and board orientation.
func settingsCommand(b *app.Bot, ctx context.Context, r *app.Req) ([]view.Reply, error) {
	s, err := b.St.Settings(ctx, r.User.ID)
	if err != nil {
		return nil, app.Wrap("load settings", err)
	}
	if l, ok := r.Options["language"]; ok {
		loc := i18n.Normalize(l)
		if loc == "" || loc == i18n.Pseudo {
			return nil, app.Refuse("settings.badlang", l, strings.Join(i18n.Locales, ", "))
		}
		s.Locale = loc
	}
	if f, ok := r.Options["flip"]; ok {
		s.Flip = f == "true"
	}
	if f, ok := r.Options["text"]; ok {
		s.Text = f == "true"
	}
	dm, dmSet := r.Options["dm_notices"]
	if dmSet {
		s.DMNotices = dm == "true"
	}
	if err := b.St.SaveSettings(ctx, r.User.ID, s); err != nil {
		return nil, app.Wrap("save settings", err)
	}
	loc := s.Locale
	if loc == "" {
		loc = r.Locale()
	}
	flip := i18n.T(loc, "settings.flip.off")
	if s.Flip {
		flip = i18n.T(loc, "settings.flip.on")
	}
	saved := i18n.T(loc, "settings.saved", i18n.T(loc, "language.name"), flip)
	if s.Text {
		saved += "\n" + i18n.T(loc, "a11y.settings.text.on")
	} else if _, ok := r.Options["text"]; ok {
		saved += "\n" + i18n.T(loc, "a11y.settings.text.off")
	}
	if dmSet {
		saved += "\n" + i18n.T(loc, map[bool]string{true: "settings.dm_notices.on", false: "settings.dm_notices.off"}[s.DMNotices])
	}
	return []view.Reply{{Ephemeral: true, Content: saved}}, nil
}
