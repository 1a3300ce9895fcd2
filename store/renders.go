package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
)

// Stored renders (docs/web.md): a finished game's pictures — the animated
// replay, the final board, the viewer's ply images — are drawn once and
// read from here afterwards, by every instance and after restarts. The
// store does not read the bytes; name says what they show and is chosen
// by the caller. Only finished games' pictures are stored: they never
// change, so a stored picture never goes stale.

// MaxRenderName bounds a render's name.
const MaxRenderName = 200

// GameRender reads the stored picture name of a game; ErrNotFound when
// none is stored.
func (s *Store) GameRender(ctx context.Context, gameID int64, name string) ([]byte, error) {
	var data []byte
	err := s.r.QueryRowContext(ctx, `SELECT data FROM game_renders WHERE game_id=? AND name=?`, gameID, name).Scan(&data)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, fmt.Errorf("render %q of game %d: %w", name, gameID, ErrNotFound)
	}
	if err != nil {
		return nil, fmt.Errorf("render %q of game %d: %w", name, gameID, err)
	}
	return data, nil
}

// SaveGameRender stores a picture of a finished game. A picture is a pure
// function of the finished game and its name, so when two instances race
// the first one stays. ErrGameActive for a game still running (its
// pictures would go stale), ErrNotFound for no such game.
func (s *Store) SaveGameRender(ctx context.Context, gameID int64, name string, data []byte) error {
	if name == "" || len(name) > MaxRenderName {
		return fmt.Errorf("save render of game %d: bad name %q", gameID, name)
	}
	err := s.tx(ctx, func(tx *sql.Tx) error {
		var status string
		err := tx.QueryRowContext(ctx, `SELECT status FROM games WHERE id=?`, gameID).Scan(&status)
		if errors.Is(err, sql.ErrNoRows) {
			return ErrNotFound
		}
		if err != nil {
			return err
		}
		if status != StatusFinished {
			return ErrGameActive
		}
		_, err = tx.ExecContext(ctx, `INSERT INTO game_renders(game_id, name, data, created_at) VALUES(?,?,?,?)
			ON CONFLICT(game_id, name) DO NOTHING`, gameID, name, data, s.now().UnixNano())
		return err
	})
	if err != nil {
		return fmt.Errorf("save render %q of game %d: %w", name, gameID, err)
	}
	return nil
}

// GameRenderBytes is the total size of a game's stored pictures.
func (s *Store) GameRenderBytes(ctx context.Context, gameID int64) (int64, error) {
	var n sql.NullInt64
	err := s.r.QueryRowContext(ctx, `SELECT SUM(LENGTH(data)) FROM game_renders WHERE game_id=?`, gameID).Scan(&n)
	if err != nil {
		return 0, fmt.Errorf("renders of game %d: %w", gameID, err)
	}
	return n.Int64, nil
}
