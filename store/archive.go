package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"

	"github.com/mattn/go-sqlite3"
)

// The archive: every game keeps a per-server number (#1, #2, ...) players
// type to find it again, and a rated flag.

// assignNumber gives a just-inserted game the next number of its guild, in
// the inserting transaction. The single writer serialises SQLite. On
// PostgreSQL concurrent transactions (several instances, or one instance's
// pool) would read the same MAX and all but one fail on the unique index,
// so a transaction-scoped advisory lock per guild serialises the numbering
// of one guild until the commit (other guilds share a lock only on a hash
// collision). SQLite has no such function: the statement fails to prepare
// there, which leaves the transaction as it was.
func assignNumber(ctx context.Context, tx *sql.Tx, id int64, guild string) (int, error) {
	if _, err := tx.ExecContext(ctx, `SELECT pg_advisory_xact_lock(hashtext('games.number:' || ?))`, guild); err != nil {
		var se sqlite3.Error
		if !errors.As(err, &se) {
			return 0, fmt.Errorf("number game %d: lock guild: %w", id, err)
		}
	}
	var n int
	if err := tx.QueryRowContext(ctx, `SELECT COALESCE(MAX(number), 0) + 1 FROM games WHERE guild=?`, guild).Scan(&n); err != nil {
		return 0, fmt.Errorf("number game %d: %w", id, err)
	}
	if _, err := tx.ExecContext(ctx, `UPDATE games SET number=? WHERE id=?`, n, id); err != nil {
		return 0, fmt.Errorf("number game %d: %w", id, err)
	}
	return n, nil
}

// Archived is a game with its archive fields.
type Archived struct {
	*Game
	Number int  // per-guild number, 1-based (as Game.Number)
	Rated  bool // the result counts (or counted) for ratings (not Game.Casual)
}

const archiveCols = gameCols

func scanArchived(r scanner) (*Archived, error) {
	g, err := scanGame(r)
	if err != nil {
		return nil, err
	}
	return &Archived{Game: g, Number: g.Number, Rated: !g.Casual}, nil
}

// GameNumber is a game's per-guild number and rated flag.
func (s *Store) GameNumber(ctx context.Context, id int64) (number int, rated bool, err error) {
	var r int
	err = s.r.QueryRowContext(ctx, `SELECT number, rated FROM games WHERE id=?`, id).Scan(&number, &r)
	if errors.Is(err, sql.ErrNoRows) {
		return 0, false, fmt.Errorf("game %d: %w", id, ErrNotFound)
	}
	if err != nil {
		return 0, false, fmt.Errorf("game %d number: %w", id, err)
	}
	return number, r != 0, nil
}

// SetRated marks a game rated or casual. Only an active game may change:
// a finished game's status is history.
func (s *Store) SetRated(ctx context.Context, id int64, rated bool) error {
	v := 0
	if rated {
		v = 1
	}
	return s.tx(ctx, func(tx *sql.Tx) error {
		res, err := tx.ExecContext(ctx, `UPDATE games SET rated=? WHERE id=? AND status=?`, v, id, StatusActive)
		if err != nil {
			return fmt.Errorf("set rated on game %d: %w", id, err)
		}
		if n, _ := res.RowsAffected(); n == 0 {
			var one int
			if err := tx.QueryRowContext(ctx, `SELECT 1 FROM games WHERE id=?`, id).Scan(&one); errors.Is(err, sql.ErrNoRows) {
				return fmt.Errorf("game %d: %w", id, ErrNotFound)
			}
			return fmt.Errorf("set rated on game %d: the game is over", id)
		}
		return nil
	})
}

// GameByNumber reads game #number of a guild (any status) with its move
// log, in one read transaction.
func (s *Store) GameByNumber(ctx context.Context, guild string, number int) (*Archived, []MoveRecord, error) {
	tx, err := s.r.BeginTx(ctx, &sql.TxOptions{ReadOnly: true})
	if err != nil {
		return nil, nil, fmt.Errorf("game #%d: %w", number, err)
	}
	defer tx.Rollback()
	a, err := scanArchived(tx.QueryRowContext(ctx, `SELECT `+archiveCols+` FROM games WHERE guild=? AND number=?`, guild, number))
	if errors.Is(err, sql.ErrNoRows) {
		return nil, nil, fmt.Errorf("game #%d: %w", number, ErrNotFound)
	}
	if err != nil {
		return nil, nil, fmt.Errorf("game #%d: %w", number, err)
	}
	ms, err := moves(ctx, tx, a.ID)
	if err != nil {
		return nil, nil, fmt.Errorf("game #%d: %w", number, err)
	}
	return a, ms, nil
}

// FinishedGames lists a guild's finished games, newest first, optionally
// only those user played (user "" for all); offset/limit page the list.
func (s *Store) FinishedGames(ctx context.Context, guild, user string, offset, limit int) ([]*Archived, error) {
	q := `SELECT ` + archiveCols + ` FROM games WHERE guild=? AND status=?`
	args := []any{guild, StatusFinished}
	if user != "" {
		q += ` AND (player0=? OR player1=?)`
		args = append(args, user, user)
	}
	q += ` ORDER BY number DESC LIMIT ? OFFSET ?`
	args = append(args, limit, offset)
	out, err := queryAll(ctx, s.r, scanArchived, q, args...)
	if err != nil {
		return nil, fmt.Errorf("finished games of %s: %w", guild, err)
	}
	return out, nil
}

// NextNumber is the number the next game created in guild will most likely
// get (a concurrent creation may take it first): for naming a thread that
// must exist before its game's row.
func (s *Store) NextNumber(ctx context.Context, guild string) (int, error) {
	var n int
	if err := s.r.QueryRowContext(ctx, `SELECT COALESCE(MAX(number), 0) + 1 FROM games WHERE guild=?`, guild).Scan(&n); err != nil {
		return 0, fmt.Errorf("next game number of %s: %w", guild, err)
	}
	return n, nil
}
