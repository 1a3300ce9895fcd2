package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"time"
)

// GameReview is a stored review of a finished game (docs/review.md): the
// summary as JSON and the annotated record. The store does not read them.
type GameReview struct {
	GameID    int64
	Summary   string
	Annotated string
	Created   time.Time
}

// GameReview reads the stored review of a game; ErrNotFound when none.
func (s *Store) GameReview(ctx context.Context, gameID int64) (*GameReview, error) {
	rv := GameReview{GameID: gameID}
	var at int64
	err := s.r.QueryRowContext(ctx, `SELECT summary, annotated, created_at FROM game_reviews WHERE game_id=?`, gameID).
		Scan(&rv.Summary, &rv.Annotated, &at)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, fmt.Errorf("review of game %d: %w", gameID, ErrNotFound)
	}
	if err != nil {
		return nil, fmt.Errorf("review of game %d: %w", gameID, err)
	}
	rv.Created = fromNanos(at)
	return &rv, nil
}

// SaveGameReview stores a game's review. A review is a pure function of
// the game's moves and budget, so a second save of the same game (two
// requests racing) keeps the first.
func (s *Store) SaveGameReview(ctx context.Context, rv *GameReview) error {
	err := s.tx(ctx, func(tx *sql.Tx) error {
		_, err := tx.ExecContext(ctx, `INSERT INTO game_reviews(game_id, summary, annotated, created_at) VALUES(?,?,?,?)
			ON CONFLICT(game_id) DO NOTHING`, rv.GameID, rv.Summary, rv.Annotated, rv.Created.UnixNano())
		return err
	})
	if err != nil {
		return fmt.Errorf("save review of game %d: %w", rv.GameID, err)
	}
	return nil
}
