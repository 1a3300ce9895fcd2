package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
)

// GuildSettings are one server's settings (/server). The zero value is a
// server that set nothing: every field falls back to the bot's defaults.
type GuildSettings struct {
	Guild  string
	Locale string // language of public messages; "" = Discord's guild locale
	Game   string // default game of /challenge; "" = the bot's
	Clock  string // default clock preset; "" = the game's default
	Thread *bool  // games open a thread; nil = the bot's configuration
	NoAI   bool   // the computer may not be challenged here
}

// GuildSettings reads a server's settings; a server that never set any
// gets the zero value (with Guild set), not an error.
func (s *Store) GuildSettings(ctx context.Context, guild string) (GuildSettings, error) {
	g := GuildSettings{Guild: guild}
	var thread sql.NullInt64
	var aiOff int64
	err := s.r.QueryRowContext(ctx, `SELECT locale, game, clock, thread, ai_off FROM guild_settings WHERE guild=?`, guild).
		Scan(&g.Locale, &g.Game, &g.Clock, &thread, &aiOff)
	if errors.Is(err, sql.ErrNoRows) {
		return g, nil
	}
	if err != nil {
		return g, fmt.Errorf("settings of server %s: %w", guild, err)
	}
	if thread.Valid {
		on := thread.Int64 != 0
		g.Thread = &on
	}
	g.NoAI = aiOff != 0
	return g, nil
}

// SaveGuildSettings writes a server's settings (all fields, replacing
// what was stored).
func (s *Store) SaveGuildSettings(ctx context.Context, g GuildSettings) error {
	if g.Guild == "" {
		return errors.New("save server settings: no server")
	}
	var thread sql.NullInt64
	if g.Thread != nil {
		thread.Valid = true
		if *g.Thread {
			thread.Int64 = 1
		}
	}
	aiOff := 0
	if g.NoAI {
		aiOff = 1
	}
	return s.tx(ctx, func(tx *sql.Tx) error {
		if _, err := tx.ExecContext(ctx, `INSERT INTO guild_settings(guild, locale, game, clock, thread, ai_off) VALUES(?,?,?,?,?,?)
			ON CONFLICT(guild) DO UPDATE SET locale=excluded.locale, game=excluded.game, clock=excluded.clock,
			thread=excluded.thread, ai_off=excluded.ai_off`,
			g.Guild, g.Locale, g.Game, g.Clock, thread, aiOff); err != nil {
			return fmt.Errorf("save settings of server %s: %w", g.Guild, err)
		}
		return nil
	})
}
