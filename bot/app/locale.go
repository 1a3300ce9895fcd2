package app

import (
	"context"

	"github.com/tankbot/tankbot/bot/i18n"
	"github.com/tankbot/tankbot/store"
)

// Locale picks the caller's language: /settings, then the Discord locale
// of the command, then the Discord locale last seen from them (for messages
// written outside an interaction), then the configured default. A Discord
// locale that differs from the stored one is saved.
func (b *Bot) Locale(ctx context.Context, c Command) string {
	var s userSettings
	if c.User.ID != "" && b.St != nil {
		var err error
		if s, err = b.St.Settings(ctx, c.User.ID); err != nil {
			b.Log.Warn("read settings", "user", c.User.ID, "err", err)
		}
		b.rememberLocale(ctx, c.User.ID, i18n.Normalize(c.Locale), s.Seen)
		if s.Locale != "" {
			return s.Locale
		}
	}
	if l := i18n.Normalize(c.Locale); l != "" {
		return l
	}
	if s.Seen != "" {
		return s.Seen
	}
	return b.Cfg.DefaultLocale
}

// rememberLocale stores loc as the user's last seen Discord locale when it
// differs from what is stored (stored: the value just read, or the cache).
func (b *Bot) rememberLocale(ctx context.Context, user, loc, stored string) {
	if loc == "" {
		return
	}
	if v, ok := b.Seen.Load(user); ok {
		stored = v.(string)
	}
	if loc == stored {
		b.Seen.Store(user, loc)
		return
	}
	if err := b.St.setSeenLocale(ctx, user, loc); err != nil {
		b.Log.Warn("remember locale", "user", user, "err", err)
		return
	}
	b.Seen.Store(user, loc)
}

// ServerSettings reads the server's settings; outside a server, or when
// the read fails (logged), the bot's defaults.
func (b *Bot) ServerSettings(ctx context.Context, guild string) store.GuildSettings {
	if guild == "" || b.St == nil {
		return store.GuildSettings{}
	}
	s := b.St
	if s == nil {
		return store.GuildSettings{Guild: guild}
	}
	gs, err := s.GuildSettings(ctx, guild)
	if err != nil {
		b.Log.Warn("read server settings", "guild", guild, "err", err)
	}
	return gs
}

// PubLocale is the language of public messages: the one the server chose
// (/server), else Discord's server locale, else the configured default.
func (b *Bot) PubLocale(c Command, chosen string) string {
	if chosen != "" {
		return chosen
	}
	if l := i18n.Normalize(c.GuildLocale); l != "" {
		return l
	}
	return b.Cfg.DefaultLocale
}
