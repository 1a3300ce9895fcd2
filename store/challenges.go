package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"time"
)

// Challenge statuses. Only a pending challenge changes status.
const (
	ChallengePending   = "pending"
	ChallengeAccepted  = "accepted"
	ChallengeDeclined  = "declined"
	ChallengeCancelled = "cancelled"
	ChallengeExpired   = "expired"
)

// Challenge is an invitation to play.
type Challenge struct {
	ID         int64
	Challenger string
	Challenged string // "" for an open challenge
	Kind       string
	Variant    string
	Start      string
	Clock      string
	Side       string // challenger's side choice
	Guild      string
	Channel    string
	MessageID  string
	Expires    time.Time
	Status     string
	GameID     int64 // set when accepted
	Extra      string
	Created    time.Time
	// Names are the challenger's and the challenged player's display
	// names as they typed them; Locale the language of the challenge's
	// public posts.
	ChallengerName string
	ChallengedName string
	Locale         string
}

const challengeCols = `id, challenger, challenged, kind, variant, start_pos, clock, side, guild, channel, message_id, expires_at, status, COALESCE(game_id, 0), extra, created_at,
	challenger_name, challenged_name, locale`

func scanChallenge(r scanner) (*Challenge, error) {
	var c Challenge
	var exp, created int64
	if err := r.Scan(&c.ID, &c.Challenger, &c.Challenged, &c.Kind, &c.Variant, &c.Start, &c.Clock, &c.Side, &c.Guild, &c.Channel,
		&c.MessageID, &exp, &c.Status, &c.GameID, &c.Extra, &created, &c.ChallengerName, &c.ChallengedName, &c.Locale); err != nil {
		return nil, err
	}
	c.Expires, c.Created = fromNanos(exp), fromNanos(created)
	return &c, nil
}

// CreateChallenge stores a pending challenge and its effects (Ref 0: the
// new challenge; at most one Effects); ErrDuplicateChallenge when the two
// players already have one pending between them.
func (s *Store) CreateChallenge(ctx context.Context, c Challenge, eff ...Effects) (*Challenge, error) {
	var out *Challenge
	if c.Clock == "" {
		c.Clock = "none"
	}
	err := s.tx(ctx, func(tx *sql.Tx) error {
		var err error
		out, err = scanChallenge(tx.QueryRowContext(ctx, `INSERT INTO challenges(challenger, challenged, kind, variant, start_pos, clock, side,
			guild, channel, message_id, expires_at, status, extra, created_at, challenger_name, challenged_name, locale)
			VALUES(?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?) RETURNING `+challengeCols,
			c.Challenger, c.Challenged, c.Kind, c.Variant, c.Start, c.Clock, c.Side, c.Guild, c.Channel, c.MessageID, nanos(c.Expires),
			ChallengePending, c.Extra, s.now().UnixNano(), c.ChallengerName, c.ChallengedName, c.Locale))
		if isUnique(err) {
			return ErrDuplicateChallenge
		}
		if err != nil {
			return err
		}
		return s.apply(ctx, tx, out.ID, one(eff))
	})
	if err != nil {
		return nil, fmt.Errorf("challenge %s -> %s: %w", c.Challenger, c.Challenged, err)
	}
	return out, nil
}

// Challenge reads one challenge; ErrNotFound when absent.
func (s *Store) Challenge(ctx context.Context, id int64) (*Challenge, error) {
	c, err := scanChallenge(s.r.QueryRowContext(ctx, `SELECT `+challengeCols+` FROM challenges WHERE id=?`, id))
	if errors.Is(err, sql.ErrNoRows) {
		return nil, fmt.Errorf("challenge %d: %w", id, ErrNotFound)
	}
	if err != nil {
		return nil, fmt.Errorf("challenge %d: %w", id, err)
	}
	return c, nil
}

// PendingChallenges are those user sent or received, and open ones, oldest first.
func (s *Store) PendingChallenges(ctx context.Context, user string) ([]*Challenge, error) {
	out, err := queryAll(ctx, s.r, scanChallenge, `SELECT `+challengeCols+` FROM challenges WHERE status=? AND (challenger=? OR challenged=? OR challenged='') ORDER BY id`,
		ChallengePending, user, user)
	if err != nil {
		return nil, fmt.Errorf("pending challenges of %s: %w", user, err)
	}
	return out, nil
}

// SetChallengeMessage records the message that carries a challenge (its
// buttons), so that it can be edited when the challenge ends; ErrNotFound
// when there is no such challenge. Any status: the id may arrive after a
// quick answer.
func (s *Store) SetChallengeMessage(ctx context.Context, id int64, messageID string) error {
	return s.tx(ctx, func(tx *sql.Tx) error {
		res, err := tx.ExecContext(ctx, `UPDATE challenges SET message_id=? WHERE id=?`, messageID, id)
		if err != nil {
			return fmt.Errorf("set message of challenge %d: %w", id, err)
		}
		if n, _ := res.RowsAffected(); n == 0 {
			return fmt.Errorf("challenge %d: %w", id, ErrNotFound)
		}
		return nil
	})
}

func pendingCAS(ctx context.Context, tx *sql.Tx, id int64, status string, gameID any) error {
	res, err := tx.ExecContext(ctx, `UPDATE challenges SET status=?, game_id=? WHERE id=? AND status=?`, status, gameID, id, ChallengePending)
	if err != nil {
		return err
	}
	if n, err := res.RowsAffected(); err != nil || n == 1 {
		return err
	}
	var one int
	if err := tx.QueryRowContext(ctx, `SELECT 1 FROM challenges WHERE id=?`, id).Scan(&one); errors.Is(err, sql.ErrNoRows) {
		return ErrNotFound
	}
	return ErrNotPending
}

// SetChallengeStatus moves a pending challenge to declined, cancelled or
// expired, with its effects (Ref 0: this challenge); ErrNotPending when it
// was already answered (and nothing is written).
func (s *Store) SetChallengeStatus(ctx context.Context, id int64, status string, eff ...Effects) error {
	switch status {
	case ChallengeDeclined, ChallengeCancelled, ChallengeExpired:
	default:
		return fmt.Errorf("challenge %d: cannot set status %q (accept with AcceptChallenge)", id, status)
	}
	err := s.tx(ctx, func(tx *sql.Tx) error {
		if err := pendingCAS(ctx, tx, id, status, nil); err != nil {
			return err
		}
		return s.apply(ctx, tx, id, one(eff))
	})
	if err != nil {
		return fmt.Errorf("challenge %d -> %s: %w", id, status, err)
	}
	return nil
}

// AcceptChallenge marks a pending challenge accepted and creates g in the
// same transaction. ErrNotPending when someone answered first (nothing is
// created); ErrActiveGameExists when the game cannot start (the challenge
// stays pending). The effects (Ref 0: the new game) are written with them.
func (s *Store) AcceptChallenge(ctx context.Context, id int64, g Game, eff ...Effects) (*Game, error) {
	var out *Game
	err := s.tx(ctx, func(tx *sql.Tx) error {
		var err error
		// The game first, so the CAS can record its id; a failed CAS rolls it back.
		if out, err = s.insertGame(ctx, tx, g); err != nil {
			return err
		}
		if err := pendingCAS(ctx, tx, id, ChallengeAccepted, out.ID); err != nil {
			return err
		}
		return s.apply(ctx, tx, out.ID, one(eff))
	})
	if err != nil {
		return nil, fmt.Errorf("accept challenge %d: %w", id, err)
	}
	return out, nil
}
