package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"strconv"
	"time"
)

// Player is a Discord user's profile and preferences.
type Player struct {
	ID     string // Discord user id
	Name   string
	Locale string
	// SeenLocale is the last Discord locale seen from the user (for
	// messages written to them outside an interaction).
	SeenLocale string
	Flip       bool     // prefers the board seen from the other side
	Rating     *float64 // nil until ratings exist
	// TextMode: the player reads boards as text (a screen reader), not
	// only as pictures.
	TextMode bool
	// DMChannel is the player's DM channel with the bot ("" until they
	// used the bot there); DMNotices: they allow the bot to send there
	// what it could not post where a game is played (docs/discord.md).
	DMChannel string
	DMNotices bool
}

// playerCols are the players columns Player reads, in scanPlayer's order.
const playerCols = `name, locale, seen_locale, flip, rating, text_mode, dm_channel, dm_notices`

func scanPlayer(r scanner, p *Player) error {
	var rating sql.NullFloat64
	if err := r.Scan(&p.Name, &p.Locale, &p.SeenLocale, &p.Flip, &rating, &p.TextMode, &p.DMChannel, &p.DMNotices); err != nil {
		return err
	}
	if rating.Valid {
		p.Rating = &rating.Float64
	}
	return nil
}

// Player reads one player; ErrNotFound when never saved.
func (s *Store) Player(ctx context.Context, id string) (Player, error) {
	p := Player{ID: id}
	err := scanPlayer(s.r.QueryRowContext(ctx, `SELECT `+playerCols+` FROM players WHERE id=?`, id), &p)
	if errors.Is(err, sql.ErrNoRows) {
		return p, fmt.Errorf("player %s: %w", id, ErrNotFound)
	}
	if err != nil {
		return p, fmt.Errorf("player %s: %w", id, err)
	}
	return p, nil
}

// PutPlayer inserts or replaces a player.
func (s *Store) PutPlayer(ctx context.Context, p Player) error {
	var rating sql.NullFloat64
	if p.Rating != nil {
		rating = sql.NullFloat64{Float64: *p.Rating, Valid: true}
	}
	return s.tx(ctx, func(tx *sql.Tx) error {
		_, err := tx.ExecContext(ctx, `INSERT INTO players(id, name, locale, seen_locale, flip, rating, text_mode, dm_channel, dm_notices, updated_at)
			VALUES(?,?,?,?,?,?,?,?,?,?)
			ON CONFLICT(id) DO UPDATE SET name=excluded.name, locale=excluded.locale, seen_locale=excluded.seen_locale, flip=excluded.flip,
			rating=excluded.rating, text_mode=excluded.text_mode, dm_channel=excluded.dm_channel, dm_notices=excluded.dm_notices,
			updated_at=excluded.updated_at`,
			p.ID, p.Name, p.Locale, p.SeenLocale, p.Flip, rating, p.TextMode, p.DMChannel, boolInt(p.DMNotices), s.now().UnixNano())
		if err != nil {
			return fmt.Errorf("put player %s: %w", p.ID, err)
		}
		return nil
	})
}

// Meta reads a key; ErrNotFound when unset.
func (s *Store) Meta(ctx context.Context, key string) (string, error) {
	var v string
	err := s.r.QueryRowContext(ctx, `SELECT value FROM meta WHERE key=?`, key).Scan(&v)
	if errors.Is(err, sql.ErrNoRows) {
		return "", fmt.Errorf("meta %s: %w", key, ErrNotFound)
	}
	if err != nil {
		return "", fmt.Errorf("meta %s: %w", key, err)
	}
	return v, nil
}

// SetMeta writes a key.
func (s *Store) SetMeta(ctx context.Context, key, value string) error {
	return s.tx(ctx, func(tx *sql.Tx) error {
		_, err := tx.ExecContext(ctx, `INSERT INTO meta(key, value) VALUES(?,?) ON CONFLICT(key) DO UPDATE SET value=excluded.value`, key, value)
		if err != nil {
			return fmt.Errorf("set meta %s: %w", key, err)
		}
		return nil
	})
}

// SetSeenLocale records the Discord locale last seen from a user (creating
// the player row if needed) without touching their other preferences.
func (s *Store) SetSeenLocale(ctx context.Context, id, locale string) error {
	return s.tx(ctx, func(tx *sql.Tx) error {
		_, err := tx.ExecContext(ctx, `INSERT INTO players(id, seen_locale, updated_at) VALUES(?,?,?)
			ON CONFLICT(id) DO UPDATE SET seen_locale=excluded.seen_locale, updated_at=excluded.updated_at`, id, locale, s.now().UnixNano())
		if err != nil {
			return fmt.Errorf("set seen locale of %s: %w", id, err)
		}
		return nil
	})
}

// heartbeatKey is the meta entry holding the last time the bot was alive.
const heartbeatKey = "heartbeat"

// Heartbeat records that the bot is alive at now.
func (s *Store) Heartbeat(ctx context.Context, now time.Time) error {
	return s.SetMeta(ctx, heartbeatKey, strconv.FormatInt(now.UnixNano(), 10))
}

// LastHeartbeat is the last time recorded by Heartbeat (zero if never).
func (s *Store) LastHeartbeat(ctx context.Context) (time.Time, error) {
	v, err := s.Meta(ctx, heartbeatKey)
	if errors.Is(err, ErrNotFound) {
		return time.Time{}, nil
	}
	if err != nil {
		return time.Time{}, err
	}
	n, err := strconv.ParseInt(v, 10, 64)
	if err != nil {
		return time.Time{}, fmt.Errorf("meta %s: %w", heartbeatKey, err)
	}
	return fromNanos(n), nil
}

// SwapMeta sets key to new only if its value is old, atomically (a
// compare-and-set shared by every instance on the database); old "" matches
// a key never set (or set to ""). It reports whether the swap happened.
func (s *Store) SwapMeta(ctx context.Context, key, old, new string) (bool, error) {
	var swapped bool
	err := s.tx(ctx, func(tx *sql.Tx) error {
		var res sql.Result
		var err error
		if old == "" {
			// The conflict clause's WHERE leaves a set key alone: no row changes.
			res, err = tx.ExecContext(ctx, `INSERT INTO meta(key, value) VALUES(?,?)
				ON CONFLICT(key) DO UPDATE SET value=excluded.value WHERE meta.value=''`, key, new)
		} else {
			res, err = tx.ExecContext(ctx, `UPDATE meta SET value=? WHERE key=? AND value=?`, new, key, old)
		}
		if err != nil {
			return fmt.Errorf("swap meta %s: %w", key, err)
		}
		n, err := res.RowsAffected()
		if err != nil {
			return fmt.Errorf("swap meta %s: %w", key, err)
		}
		swapped = n == 1
		return nil
	})
	return swapped, err
}
