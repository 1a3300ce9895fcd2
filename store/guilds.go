package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"sort"
	"strings"
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

	// GamesChannel is the one channel where /challenge may be used
	// (its threads too); "" = anywhere.
	GamesChannel string
	// DailyChannel is where the daily puzzle is posted ("" = none), at
	// DailyHour o'clock UTC (0–23).
	DailyChannel string
	DailyHour    int
	// ChallengeRole is the role a member needs to challenge; "" = everyone.
	ChallengeRole string
	// Variants are the default maps of /challenge by game name; a game
	// missing uses its own default.
	Variants map[string]string
}

// encodeVariants writes a variant map as "game=variant" pairs, sorted.
func encodeVariants(m map[string]string) string {
	var out []string
	for g, v := range m {
		if g != "" && v != "" {
			out = append(out, g+"="+v)
		}
	}
	sort.Strings(out)
	return strings.Join(out, ",")
}

func decodeVariants(s string) map[string]string {
	if s == "" {
		return nil
	}
	out := map[string]string{}
	for _, p := range strings.Split(s, ",") {
		if g, v, ok := strings.Cut(p, "="); ok && g != "" && v != "" {
			out[g] = v
		}
	}
	return out
}

// GuildSettings reads a server's settings; a server that never set any
// gets the zero value (with Guild set), not an error.
func (s *Store) GuildSettings(ctx context.Context, guild string) (GuildSettings, error) {
	g := GuildSettings{Guild: guild}
	var thread sql.NullInt64
	var aiOff int64
	var variants string
	err := s.r.QueryRowContext(ctx, `SELECT locale, game, clock, thread, ai_off, games_channel, daily_channel, daily_hour, challenge_role, variants
		FROM guild_settings WHERE guild=?`, guild).
		Scan(&g.Locale, &g.Game, &g.Clock, &thread, &aiOff, &g.GamesChannel, &g.DailyChannel, &g.DailyHour, &g.ChallengeRole, &variants)
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
	g.Variants = decodeVariants(variants)
	return g, nil
}

// SaveGuildSettings writes a server's settings (all fields, replacing
// what was stored), with the effects of the change (the daily puzzle's
// event moved) in the same transaction.
func (s *Store) SaveGuildSettings(ctx context.Context, g GuildSettings, eff ...Effects) error {
	if g.Guild == "" {
		return errors.New("save server settings: no server")
	}
	if g.DailyHour < 0 || g.DailyHour > 23 {
		return fmt.Errorf("save settings of server %s: daily hour %d is not 0–23", g.Guild, g.DailyHour)
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
		if _, err := tx.ExecContext(ctx, `INSERT INTO guild_settings(guild, locale, game, clock, thread, ai_off,
			games_channel, daily_channel, daily_hour, challenge_role, variants) VALUES(?,?,?,?,?,?,?,?,?,?,?)
			ON CONFLICT(guild) DO UPDATE SET locale=excluded.locale, game=excluded.game, clock=excluded.clock,
			thread=excluded.thread, ai_off=excluded.ai_off, games_channel=excluded.games_channel,
			daily_channel=excluded.daily_channel, daily_hour=excluded.daily_hour,
			challenge_role=excluded.challenge_role, variants=excluded.variants`,
			g.Guild, g.Locale, g.Game, g.Clock, thread, aiOff,
			g.GamesChannel, g.DailyChannel, g.DailyHour, g.ChallengeRole, encodeVariants(g.Variants)); err != nil {
			return fmt.Errorf("save settings of server %s: %w", g.Guild, err)
		}
		if err := s.apply(ctx, tx, 0, one(eff)); err != nil {
			return fmt.Errorf("save settings of server %s: %w", g.Guild, err)
		}
		return nil
	})
}
