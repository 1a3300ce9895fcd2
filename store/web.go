package store

import (
	"context"
	"crypto/rand"
	"crypto/sha256"
	"crypto/subtle"
	"database/sql"
	"encoding/base64"
	"encoding/hex"
	"errors"
	"fmt"
	"strings"
)

// The web viewer's state (docs/web.md): each game's page is reached through
// a random 128-bit capability, never through its number; either player may
// hide a finished game; a server may turn links off. Every refusal is
// ErrNotFound, so a page that is hidden, switched off or never existed
// answers the same.

// ErrNotPlayer: only a game's players may hide it.
var ErrNotPlayer = errors.New("store: not a player of this game")

// ErrGameActive: a running game cannot be hidden.
var ErrGameActive = errors.New("store: the game is still running")

// tokenBytes is the capability's size: 128 bits.
const tokenBytes = 16

// tokenHash is what the index holds: a search by it reveals, through its
// timing, only which hashes are near each other, nothing about tokens.
func tokenHash(token string) string {
	h := sha256.Sum256([]byte(token))
	return hex.EncodeToString(h[:])
}

// WebToken returns game id's web token, creating it on first use (unguessable,
// base64url without padding: 22 characters).
func (s *Store) WebToken(ctx context.Context, gameID int64) (string, error) {
	var tok string
	err := s.r.QueryRowContext(ctx, `SELECT token FROM web_links WHERE game_id=?`, gameID).Scan(&tok)
	if err == nil {
		return tok, nil
	}
	if !errors.Is(err, sql.ErrNoRows) {
		return "", fmt.Errorf("web token of game %d: %w", gameID, err)
	}
	var b [tokenBytes]byte
	if _, err := rand.Read(b[:]); err != nil {
		return "", fmt.Errorf("web token of game %d: %w", gameID, err)
	}
	fresh := base64.RawURLEncoding.EncodeToString(b[:])
	err = s.tx(ctx, func(tx *sql.Tx) error {
		var one int
		if err := tx.QueryRowContext(ctx, `SELECT 1 FROM games WHERE id=?`, gameID).Scan(&one); errors.Is(err, sql.ErrNoRows) {
			return fmt.Errorf("game %d: %w", gameID, ErrNotFound)
		} else if err != nil {
			return err
		}
		// Two instances may race: the first insert wins, both read it.
		if _, err := tx.ExecContext(ctx, `INSERT INTO web_links(game_id, token, token_hash, created_at) VALUES(?,?,?,?) ON CONFLICT(game_id) DO NOTHING`,
			gameID, fresh, tokenHash(fresh), s.now().UnixNano()); err != nil {
			return err
		}
		return tx.QueryRowContext(ctx, `SELECT token FROM web_links WHERE game_id=?`, gameID).Scan(&tok)
	})
	if err != nil {
		return "", fmt.Errorf("web token of game %d: %w", gameID, err)
	}
	return tok, nil
}

// GameByWebToken is the game token opens, or ErrNotFound when the token is
// unknown or malformed, the game hidden, or its server's links off. The
// lookup goes by the token's hash and the stored token is compared in
// constant time, so neither a near miss nor a malformed token answers at a
// measurably different speed.
func (s *Store) GameByWebToken(ctx context.Context, token string) (*Game, error) {
	if len(token) > 64 {
		token = token[:64] // bounds the hashing; such a token never matches
	}
	var stored string
	var hidden, off int64
	g, err := scanGameWith(s.r.QueryRowContext(ctx, `SELECT `+prefixed("g.", gameCols)+`, w.token, w.hidden, COALESCE(o.links_off, 0)
		FROM web_links w JOIN games g ON g.id = w.game_id LEFT JOIN web_guilds o ON o.guild = g.guild
		WHERE w.token_hash = ?`, tokenHash(token)), &stored, &hidden, &off)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, ErrNotFound
	}
	if err != nil {
		return nil, fmt.Errorf("game by web token: %w", err)
	}
	if subtle.ConstantTimeCompare([]byte(stored), []byte(token)) != 1 || hidden != 0 || off != 0 {
		return nil, ErrNotFound
	}
	return g, nil
}

// prefixed qualifies each column of a comma-separated list.
func prefixed(p, cols string) string {
	parts := strings.Split(cols, ",")
	for i, c := range parts {
		parts[i] = p + strings.TrimSpace(c)
	}
	return strings.Join(parts, ", ")
}

// scanGameWith scans a game row followed by more columns.
func scanGameWith(r scanner, more ...any) (*Game, error) {
	var extra []any
	g, err := scanGame(scanFunc(func(dest ...any) error {
		extra = append(dest, more...)
		return r.Scan(extra...)
	}))
	return g, err
}

type scanFunc func(...any) error

func (f scanFunc) Scan(dest ...any) error { return f(dest...) }

// HideGame hides (or shows again) a finished game's web page at the request
// of user, who must be one of its players.
func (s *Store) HideGame(ctx context.Context, gameID int64, user string, hide bool) error {
	g, err := s.Game(ctx, gameID)
	if err != nil {
		return err
	}
	if user == "" || (g.Players[0] != user && g.Players[1] != user) {
		return fmt.Errorf("hide game %d: %w", gameID, ErrNotPlayer)
	}
	if g.Status != StatusFinished {
		return fmt.Errorf("hide game %d: %w", gameID, ErrGameActive)
	}
	if _, err := s.WebToken(ctx, gameID); err != nil {
		return err
	}
	v := 0
	if hide {
		v = 1
	}
	return s.tx(ctx, func(tx *sql.Tx) error {
		if _, err := tx.ExecContext(ctx, `UPDATE web_links SET hidden=? WHERE game_id=?`, v, gameID); err != nil {
			return fmt.Errorf("hide game %d: %w", gameID, err)
		}
		return nil
	})
}

// SetWebLinks turns a server's web links on or off (on by default).
func (s *Store) SetWebLinks(ctx context.Context, guild string, on bool) error {
	off := 1
	if on {
		off = 0
	}
	return s.tx(ctx, func(tx *sql.Tx) error {
		if _, err := tx.ExecContext(ctx, `INSERT INTO web_guilds(guild, links_off) VALUES(?,?) ON CONFLICT(guild) DO UPDATE SET links_off=excluded.links_off`, guild, off); err != nil {
			return fmt.Errorf("web links of %s: %w", guild, err)
		}
		return nil
	})
}

// WebLinks reports whether a server's games have web links.
func (s *Store) WebLinks(ctx context.Context, guild string) (bool, error) {
	var off int64
	err := s.r.QueryRowContext(ctx, `SELECT links_off FROM web_guilds WHERE guild=?`, guild).Scan(&off)
	if errors.Is(err, sql.ErrNoRows) {
		return true, nil
	}
	if err != nil {
		return false, fmt.Errorf("web links of %s: %w", guild, err)
	}
	return off == 0, nil
}

// GameRevs reads the revisions of the given games in one query (the web
// viewer polls them to push updates to its live pages); missing games are
// left out.
func (s *Store) GameRevs(ctx context.Context, ids []int64) (map[int64]int64, error) {
	out := make(map[int64]int64, len(ids))
	for len(ids) > 0 {
		n := min(len(ids), 500)
		q := `SELECT id, rev FROM games WHERE id IN (?` + strings.Repeat(",?", n-1) + `)`
		args := make([]any, n)
		for i, id := range ids[:n] {
			args[i] = id
		}
		revs, err := queryAll(ctx, s.r, func(r scanner) ([2]int64, error) {
			var idRev [2]int64
			err := r.Scan(&idRev[0], &idRev[1])
			return idRev, err
		}, q, args...)
		if err != nil {
			return nil, fmt.Errorf("game revisions: %w", err)
		}
		for _, x := range revs {
			out[x[0]] = x[1]
		}
		ids = ids[n:]
	}
	return out, nil
}
