package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
)

// The archive: every game keeps a per-server number (#1, #2, ...) players
// type to find it again, and a rated flag.

// numberTries bounds assignNumber's retries: each one follows a concurrent
// transaction that took the number, so it is only reached under a storm
// of games created in one guild at the same instant.
const numberTries = 50

// assignNumber gives a just-inserted game the next number of its guild, in
// the inserting transaction. The single writer serialises SQLite. On
// PostgreSQL (several instances, or one instance's pool) two transactions
// can read the same MAX: the second one's UPDATE waits for the first to
// commit and then fails on the unique index, so the attempt runs inside a
// savepoint and is retried with a fresh MAX (READ COMMITTED reads the
// committed number), without giving up the game's transaction.
func assignNumber(ctx context.Context, tx *sql.Tx, id int64, guild string) (int, error) {
	for try := 1; ; try++ {
		if _, err := tx.ExecContext(ctx, `SAVEPOINT assign_number`); err != nil {
			return 0, fmt.Errorf("number game %d: %w", id, err)
		}
		var n int
		err := tx.QueryRowContext(ctx, `SELECT COALESCE(MAX(number), 0) + 1 FROM games WHERE guild=?`, guild).Scan(&n)
		if err == nil {
			_, err = tx.ExecContext(ctx, `UPDATE games SET number=? WHERE id=?`, n, id)
		}
		if err == nil {
			if _, err := tx.ExecContext(ctx, `RELEASE SAVEPOINT assign_number`); err != nil {
				return 0, fmt.Errorf("number game %d: %w", id, err)
			}
			return n, nil
		}
		if !isUnique(err) || try == numberTries {
			return 0, fmt.Errorf("number game %d: %w", id, err)
		}
		if _, rerr := tx.ExecContext(ctx, `ROLLBACK TO SAVEPOINT assign_number`); rerr != nil {
			return 0, fmt.Errorf("number game %d: %v (after %w)", id, rerr, err)
		}
	}
}

// Archived is a game with its archive fields.
type Archived struct {
	*Game
	Number int  // per-guild number, 1-based
	Rated  bool // the result counts (or counted) for ratings
}

const archiveCols = `number, rated, ` + gameCols

// prefixed scans extra leading columns into pre, the rest with the wrapped
// scanner's caller (scanGame), so the game columns are read in one place.
type prefixed struct {
	r   scanner
	pre []any
}

func (p prefixed) Scan(dest ...any) error { return p.r.Scan(append(p.pre, dest...)...) }

func scanArchived(r scanner) (*Archived, error) {
	var a Archived
	var rated int
	g, err := scanGame(prefixed{r, []any{&a.Number, &rated}})
	if err != nil {
		return nil, err
	}
	a.Game, a.Rated = g, rated != 0
	return &a, nil
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
	rows, err := s.r.QueryContext(ctx, q, args...)
	if err != nil {
		return nil, fmt.Errorf("finished games of %s: %w", guild, err)
	}
	defer rows.Close()
	var out []*Archived
	for rows.Next() {
		a, err := scanArchived(rows)
		if err != nil {
			return nil, fmt.Errorf("finished games of %s: %w", guild, err)
		}
		out = append(out, a)
	}
	return out, rows.Err()
}
