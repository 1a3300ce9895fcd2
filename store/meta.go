package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
)

// Player is a Discord user's profile and preferences.
type Player struct {
	ID     string // Discord user id
	Name   string
	Locale string
	Flip   bool     // prefers the board seen from the other side
	Rating *float64 // nil until ratings exist
}

// Player reads one player; ErrNotFound when never saved.
func (s *Store) Player(ctx context.Context, id string) (Player, error) {
	p := Player{ID: id}
	var rating sql.NullFloat64
	err := s.r.QueryRowContext(ctx, `SELECT name, locale, flip, rating FROM players WHERE id=?`, id).Scan(&p.Name, &p.Locale, &p.Flip, &rating)
	if errors.Is(err, sql.ErrNoRows) {
		return p, fmt.Errorf("player %s: %w", id, ErrNotFound)
	}
	if err != nil {
		return p, fmt.Errorf("player %s: %w", id, err)
	}
	if rating.Valid {
		p.Rating = &rating.Float64
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
		_, err := tx.ExecContext(ctx, `INSERT INTO players(id, name, locale, flip, rating, updated_at) VALUES(?,?,?,?,?,?)
			ON CONFLICT(id) DO UPDATE SET name=excluded.name, locale=excluded.locale, flip=excluded.flip, rating=excluded.rating, updated_at=excluded.updated_at`,
			p.ID, p.Name, p.Locale, p.Flip, rating, s.now().UnixNano())
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
