package bot

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"time"

	_ "github.com/mattn/go-sqlite3" // database/sql driver
)

// Storage is where the bot keeps challenges, games, move logs, scheduled
// events and player settings. OpenSQLite gives one on a SQLite file.
//
// Interim: the store/ package had not been published when this core was
// written, so the bot carries this small SQLite implementation of its own
// narrow repo seam. When store.Store lands, an adapter to repo replaces this
// file and nothing else changes.
type Storage interface {
	repo
	Close() error
}

// DefaultPath is where the console keeps its database unless told.
func DefaultPath() string {
	if dir, err := os.UserConfigDir(); err == nil {
		return filepath.Join(dir, "tankbot", "tankbot.db")
	}
	return "tankbot.db"
}

type sqliteRepo struct{ db *sql.DB }

const schema = `
CREATE TABLE IF NOT EXISTS settings (user_id TEXT PRIMARY KEY, data TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS challenges (id INTEGER PRIMARY KEY, status TEXT NOT NULL, challenger TEXT NOT NULL, opponent TEXT NOT NULL, data TEXT NOT NULL);
CREATE INDEX IF NOT EXISTS challenges_pending ON challenges(status);
CREATE TABLE IF NOT EXISTS games (id INTEGER PRIMARY KEY, rev INTEGER NOT NULL, status TEXT NOT NULL, guild TEXT NOT NULL, channel TEXT NOT NULL, white TEXT NOT NULL, black TEXT NOT NULL, data TEXT NOT NULL);
CREATE INDEX IF NOT EXISTS games_active ON games(status, guild);
CREATE INDEX IF NOT EXISTS games_channel ON games(channel, status);
CREATE TABLE IF NOT EXISTS moves (game_id INTEGER NOT NULL, ply INTEGER NOT NULL, notation TEXT NOT NULL, PRIMARY KEY (game_id, ply));
CREATE TABLE IF NOT EXISTS events (id INTEGER PRIMARY KEY, kind TEXT NOT NULL, ref INTEGER NOT NULL, ply INTEGER NOT NULL, due INTEGER NOT NULL, arg TEXT NOT NULL);
CREATE INDEX IF NOT EXISTS events_due ON events(due);
`

// OpenSQLite opens (creating if needed) the bot's database at path: WAL,
// one writer connection, busy timeout.
func OpenSQLite(path string) (Storage, error) {
	if dir := filepath.Dir(path); dir != "" {
		if err := os.MkdirAll(dir, 0o755); err != nil {
			return nil, fmt.Errorf("open %s: %w", path, err)
		}
	}
	db, err := sql.Open("sqlite3", "file:"+path+"?_journal_mode=WAL&_busy_timeout=5000&_synchronous=NORMAL&_txlock=immediate")
	if err != nil {
		return nil, fmt.Errorf("open %s: %w", path, err)
	}
	db.SetMaxOpenConns(1) // SQLite has one writer; queueing here beats busy retries
	if _, err := db.Exec(schema); err != nil {
		db.Close()
		return nil, fmt.Errorf("migrate %s: %w", path, err)
	}
	return &sqliteRepo{db: db}, nil
}

func (s *sqliteRepo) Close() error { return s.db.Close() }

func (s *sqliteRepo) settings(ctx context.Context, id string) (userSettings, error) {
	var u userSettings
	var data string
	err := s.db.QueryRowContext(ctx, `SELECT data FROM settings WHERE user_id=?`, id).Scan(&data)
	if errors.Is(err, sql.ErrNoRows) {
		return u, nil
	}
	if err != nil {
		return u, err
	}
	return u, json.Unmarshal([]byte(data), &u)
}

func (s *sqliteRepo) saveSettings(ctx context.Context, id string, u userSettings) error {
	data, _ := json.Marshal(u)
	_, err := s.db.ExecContext(ctx, `INSERT INTO settings(user_id, data) VALUES(?,?) ON CONFLICT(user_id) DO UPDATE SET data=excluded.data`, id, string(data))
	return err
}

func (s *sqliteRepo) createChallenge(ctx context.Context, c *challengeRec) (int64, error) {
	data, _ := json.Marshal(c)
	res, err := s.db.ExecContext(ctx, `INSERT INTO challenges(status, challenger, opponent, data) VALUES(?,?,?,?)`, c.Status, c.Challenger.ID, c.Opponent.ID, string(data))
	if err != nil {
		return 0, err
	}
	return res.LastInsertId()
}

func scanChallenge(id int64, status, data string) (*challengeRec, error) {
	var c challengeRec
	if err := json.Unmarshal([]byte(data), &c); err != nil {
		return nil, err
	}
	c.ID, c.Status = id, status
	return &c, nil
}

func (s *sqliteRepo) challenge(ctx context.Context, id int64) (*challengeRec, error) {
	var status, data string
	err := s.db.QueryRowContext(ctx, `SELECT status, data FROM challenges WHERE id=?`, id).Scan(&status, &data)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, errNotFound
	}
	if err != nil {
		return nil, err
	}
	return scanChallenge(id, status, data)
}

func (s *sqliteRepo) setChallengeStatus(ctx context.Context, id int64, status string) (bool, error) {
	res, err := s.db.ExecContext(ctx, `UPDATE challenges SET status=? WHERE id=? AND status=?`, status, id, chPending)
	if err != nil {
		return false, err
	}
	n, err := res.RowsAffected()
	return n == 1, err
}

func (s *sqliteRepo) pendingChallenges(ctx context.Context, user string) ([]*challengeRec, error) {
	rows, err := s.db.QueryContext(ctx, `SELECT id, status, data FROM challenges WHERE status=? AND (challenger=? OR opponent=? OR opponent='') ORDER BY id`, chPending, user, user)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []*challengeRec
	for rows.Next() {
		var id int64
		var status, data string
		if err := rows.Scan(&id, &status, &data); err != nil {
			return nil, err
		}
		c, err := scanChallenge(id, status, data)
		if err != nil {
			return nil, err
		}
		out = append(out, c)
	}
	return out, rows.Err()
}

func (s *sqliteRepo) createGame(ctx context.Context, g *gameRec) (int64, error) {
	data, _ := json.Marshal(g)
	res, err := s.db.ExecContext(ctx, `INSERT INTO games(rev, status, guild, channel, white, black, data) VALUES(?,?,?,?,?,?,?)`,
		g.Rev, g.Status, g.GuildID, g.ChannelID, g.White.ID, g.Black.ID, string(data))
	if err != nil {
		return 0, err
	}
	return res.LastInsertId()
}

func scanGame(id int64, data string) (*gameRec, error) {
	var g gameRec
	if err := json.Unmarshal([]byte(data), &g); err != nil {
		return nil, err
	}
	g.ID = id
	return &g, nil
}

func (s *sqliteRepo) game(ctx context.Context, id int64) (*gameRec, error) {
	var data string
	err := s.db.QueryRowContext(ctx, `SELECT data FROM games WHERE id=?`, id).Scan(&data)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, errNotFound
	}
	if err != nil {
		return nil, err
	}
	return scanGame(id, data)
}

// saveGame is the compare-and-set: the row is updated only if its revision
// is still the one g was read at; the move joins the log in the same
// transaction.
func (s *sqliteRepo) saveGame(ctx context.Context, g *gameRec, move string) (bool, error) {
	return s.update(ctx, g, func(tx *sql.Tx) error {
		if move == "" {
			return nil
		}
		_, err := tx.ExecContext(ctx, `INSERT INTO moves(game_id, ply, notation) VALUES(?,?,?)`, g.ID, g.Ply, move)
		return err
	})
}

func (s *sqliteRepo) takeBack(ctx context.Context, g *gameRec) (bool, error) {
	return s.update(ctx, g, func(tx *sql.Tx) error {
		_, err := tx.ExecContext(ctx, `DELETE FROM moves WHERE game_id=? AND ply>?`, g.ID, g.Ply)
		return err
	})
}

func (s *sqliteRepo) update(ctx context.Context, g *gameRec, also func(*sql.Tx) error) (bool, error) {
	data, _ := json.Marshal(g)
	tx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		return false, err
	}
	defer tx.Rollback()
	res, err := tx.ExecContext(ctx, `UPDATE games SET rev=?, status=?, channel=?, data=? WHERE id=? AND rev=?`, g.Rev, g.Status, g.ChannelID, string(data), g.ID, g.Rev-1)
	if err != nil {
		return false, err
	}
	if n, err := res.RowsAffected(); err != nil || n != 1 {
		return false, err
	}
	if err := also(tx); err != nil {
		return false, err
	}
	return true, tx.Commit()
}

func (s *sqliteRepo) games(ctx context.Context, q string, args ...any) ([]*gameRec, error) {
	rows, err := s.db.QueryContext(ctx, q, args...)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []*gameRec
	for rows.Next() {
		var id int64
		var data string
		if err := rows.Scan(&id, &data); err != nil {
			return nil, err
		}
		g, err := scanGame(id, data)
		if err != nil {
			return nil, err
		}
		out = append(out, g)
	}
	return out, rows.Err()
}

func (s *sqliteRepo) activeGames(ctx context.Context, guild string) ([]*gameRec, error) {
	return s.games(ctx, `SELECT id, data FROM games WHERE status=? AND guild=? ORDER BY id`, gmActive, guild)
}

func (s *sqliteRepo) channelGames(ctx context.Context, channel string) ([]*gameRec, error) {
	return s.games(ctx, `SELECT id, data FROM games WHERE status=? AND channel=? ORDER BY id`, gmActive, channel)
}

func (s *sqliteRepo) lastGame(ctx context.Context, user, channel string) (*gameRec, error) {
	gs, err := s.games(ctx, `SELECT id, data FROM games WHERE channel=? AND (white=? OR black=?) ORDER BY id DESC LIMIT 1`, channel, user, user)
	if err != nil {
		return nil, err
	}
	if len(gs) == 0 {
		return nil, errNotFound
	}
	return gs[0], nil
}

func (s *sqliteRepo) moveLog(ctx context.Context, id int64) ([]string, error) {
	rows, err := s.db.QueryContext(ctx, `SELECT notation FROM moves WHERE game_id=? ORDER BY ply`, id)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []string
	for rows.Next() {
		var n string
		if err := rows.Scan(&n); err != nil {
			return nil, err
		}
		out = append(out, n)
	}
	return out, rows.Err()
}

func (s *sqliteRepo) schedule(ctx context.Context, e event) error {
	_, err := s.db.ExecContext(ctx, `INSERT INTO events(kind, ref, ply, due, arg) VALUES(?,?,?,?,?)`, e.Kind, e.Ref, e.Ply, e.Due.UnixNano(), e.Arg)
	return err
}

func (s *sqliteRepo) cancelEvents(ctx context.Context, ref int64, kinds ...string) error {
	for _, k := range kinds {
		if _, err := s.db.ExecContext(ctx, `DELETE FROM events WHERE ref=? AND kind=?`, ref, k); err != nil {
			return err
		}
	}
	return nil
}

// claimDue deletes and returns the due events in one transaction, so an
// event fires once even with two schedulers on one file.
func (s *sqliteRepo) claimDue(ctx context.Context, now time.Time) ([]event, error) {
	tx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		return nil, err
	}
	defer tx.Rollback()
	rows, err := tx.QueryContext(ctx, `SELECT id, kind, ref, ply, due, arg FROM events WHERE due<=? ORDER BY due, id`, now.UnixNano())
	if err != nil {
		return nil, err
	}
	var out []event
	var ids []int64
	for rows.Next() {
		var e event
		var id, due int64
		if err := rows.Scan(&id, &e.Kind, &e.Ref, &e.Ply, &due, &e.Arg); err != nil {
			rows.Close()
			return nil, err
		}
		e.Due = time.Unix(0, due).UTC()
		out = append(out, e)
		ids = append(ids, id)
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return nil, err
	}
	for _, id := range ids {
		if _, err := tx.ExecContext(ctx, `DELETE FROM events WHERE id=?`, id); err != nil {
			return nil, err
		}
	}
	return out, tx.Commit()
}
