package app

import (
	"context"
	"strings"

	"github.com/tankbot/tankbot/bot/i18n"
)

// /settings: the caller's language and board orientation.

var settingsCmd = command{
	name: "settings",
	doc: "Your language (en, th, pt-BR), board orientation, text mode (boards in words, for a screen reader) and `dm_notices` " +
		"(what the bot cannot post where you play, outside servers that added it, also comes to your DM with it).",
	opts: []optDef{{name: "language", typ: String, choices: languageChoices}, {name: "flip", typ: Bool}, {name: "text", typ: Bool},
		{name: "dm_notices", typ: Bool}},
	run: (*Bot).settingsCommand,
}

// settingsCommand stores the caller's language and board orientation.
func (b *Bot) settingsCommand(ctx context.Context, r *req) ([]Reply, error) {
	s, err := b.st.settings(ctx, r.User.ID)
	if err != nil {
		return nil, wrap("load settings", err)
	}
	if l, ok := r.Options["language"]; ok {
		loc := i18n.Normalize(l)
		if loc == "" || loc == i18n.Pseudo {
			return nil, refuse("settings.badlang", l, strings.Join(i18n.Locales, ", "))
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
	if err := b.st.saveSettings(ctx, r.User.ID, s); err != nil {
		return nil, wrap("save settings", err)
	}
	loc := s.Locale
	if loc == "" {
		loc = r.loc
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
	return []Reply{{Ephemeral: true, Content: saved}}, nil
}
