package store

import (
	"context"
	"crypto/rand"
	"database/sql"
	"encoding/hex"
	"fmt"
	"slices"
	"strings"
	"time"
)

// Effects are what a state change implies beyond its own row: scheduled
// events to drop and to add, and messages to post out of band. They are
// written in the transaction of the change, so a crash can never keep the
// change and lose its flag-fall or its announcement (or the reverse).
type Effects struct {
	// Cancel drops pending events.
	Cancel []EventFilter
	// Schedule adds events; an Event with Ref 0 refers to the row being
	// written (the game a move or an accepted challenge creates, the
	// challenge being created).
	Schedule []Event
	// Outbox queues messages for the scheduler to deliver.
	Outbox []Message
}

// EventFilter selects the pending events of a game or challenge: Ref 0 is
// the row being written; no Kinds means every kind.
type EventFilter struct {
	Ref   int64
	Kinds []string
}

// one merges the optional trailing effects argument of the challenge calls.
func one(effs []Effects) Effects {
	var out Effects
	for _, e := range effs {
		out.Cancel = append(out.Cancel, e.Cancel...)
		out.Schedule = append(out.Schedule, e.Schedule...)
		out.Outbox = append(out.Outbox, e.Outbox...)
	}
	return out
}

// apply writes e inside tx; ref is the row being written.
func (s *Store) apply(ctx context.Context, tx *sql.Tx, ref int64, e Effects) error {
	for _, c := range e.Cancel {
		r := c.Ref
		if r == 0 {
			r = ref
		}
		if err := cancelEvents(ctx, tx, r, c.Kinds, s.now()); err != nil {
			return fmt.Errorf("cancel events of %d: %w", r, err)
		}
	}
	for _, ev := range e.Schedule {
		if ev.Ref == 0 {
			ev.Ref = ref
		}
		if _, err := insertEvent(ctx, tx, ev); err != nil {
			return fmt.Errorf("schedule %s for %d: %w", ev.Kind, ev.Ref, err)
		}
	}
	for _, m := range e.Outbox {
		if _, err := s.enqueue(ctx, tx, m); err != nil {
			return fmt.Errorf("queue message for %s: %w", m.Channel, err)
		}
	}
	return nil
}

// cancelEvents marks the pending events of ref (of kinds, all when none)
// done rather than deleting them: SQLite reuses the id of a deleted last
// row, and an event being run when its own transaction cancels it (the
// computer's move cancels the computer's turn) would then complete the
// event scheduled in its place under the same id. done_at is now, so that
// Purge keeps the row for its retention.
func cancelEvents(ctx context.Context, tx *sql.Tx, ref int64, kinds []string, now time.Time) error {
	q, args := `UPDATE events SET done=1, done_at=? WHERE ref=? AND done=0`, []any{now.UnixNano(), ref}
	if len(kinds) > 0 {
		q += ` AND kind IN (?` + strings.Repeat(",?", len(kinds)-1) + `)`
		for _, k := range kinds {
			args = append(args, k)
		}
	}
	_, err := tx.ExecContext(ctx, q, args...)
	return err
}

func insertEvent(ctx context.Context, tx *sql.Tx, e Event) (int64, error) {
	var id int64
	err := tx.QueryRowContext(ctx, `INSERT INTO events(kind, ref, ply, due_at, payload) VALUES(?,?,?,?,?) RETURNING id`,
		e.Kind, e.Ref, e.Ply, e.Due.UnixNano(), e.Payload).Scan(&id)
	return id, err
}

// Message is one out-of-band post in the outbox.
type Message struct {
	ID      int64
	Channel string
	// Nonce is set by the store when the message is queued (random, 20
	// characters) and is sent with every attempt, so Discord drops a
	// resend of a message it already took.
	Nonce   string
	Payload string // opaque to the store
	// Due is when to try first (zero: at once, whatever the claimer's clock).
	Due      time.Time
	Attempts int // claims so far, this one included
	// Kind is OutboxPing for a move's fallback ping ("" for any other
	// post); Game and Seq say which move: the game and the sequence the
	// move reached. Queuing a ping cancels the game's older pending ones;
	// RecordBoard cancels those the recorded board answers.
	Kind string
	Game int64
	Seq  int
}

// Outbox states.
const (
	OutboxPending = "pending"
	OutboxSent    = "sent"
	OutboxFailed  = "failed" // given up after repeated failures
	// OutboxCancelled: a fallback ping made needless (its answer was
	// recorded, a newer move superseded it, the game moved on).
	OutboxCancelled = "cancelled"
	// OutboxHeld: Discord does not let the bot post where the game is
	// played (the app is installed only to a player there); the post is
	// kept for the next interaction with its game and never purged while
	// held. OutboxShown: such a post was shown in an interaction.
	OutboxHeld  = "held"
	OutboxShown = "shown"
)

// OutboxPing is the Kind of a move's fallback ping.
const OutboxPing = "ping"

func newNonce() string {
	var b [10]byte
	_, _ = rand.Read(b[:]) // never fails (crypto/rand)
	return hex.EncodeToString(b[:])
}

func (s *Store) enqueue(ctx context.Context, tx *sql.Tx, m Message) (int64, error) {
	if m.Kind == OutboxPing {
		// A newer move supersedes the older pings: a burst of moves
		// never yields a burst of late pings.
		if err := s.cancelPings(ctx, tx, m.Game, m.Seq-1); err != nil {
			return 0, err
		}
	}
	var id int64
	err := tx.QueryRowContext(ctx, `INSERT INTO outbox(channel, nonce, payload, due_at, created_at, kind, game_id, seq) VALUES(?,?,?,?,?,?,?,?) RETURNING id`,
		m.Channel, newNonce(), m.Payload, nanos(m.Due), s.now().UnixNano(), m.Kind, m.Game, m.Seq).Scan(&id)
	return id, err
}

// cancelPings cancels the pending fallback pings of game for sequences up
// to seq. A ping being delivered right now is cancelled too: its
// deliverer's MarkSent still records that it went, and Retry no longer
// revives it.
func (s *Store) cancelPings(ctx context.Context, tx *sql.Tx, game int64, seq int) error {
	_, err := tx.ExecContext(ctx, `UPDATE outbox SET state=?, done_at=?, claimed_until=0
		WHERE kind=? AND game_id=? AND seq<=? AND state=?`,
		OutboxCancelled, s.now().UnixNano(), OutboxPing, game, seq, OutboxPending)
	if err != nil {
		return fmt.Errorf("cancel pings of game %d: %w", game, err)
	}
	return nil
}

// RecordBoard records that the board of game at sequence seq (below 0:
// unknown, the game's sequence now) reached Discord as messageID (none
// when "": a transport without ids), adds it to
// the game's boards (queueing a strip post when it supersedes another live
// board, or arrives already superseded) and cancels the fallback pings it
// answers (seq 0: none), in one transaction.
func (s *Store) RecordBoard(ctx context.Context, gameID int64, seq int, messageID string) error {
	return s.RecordBoardVia(ctx, gameID, seq, messageID, BoardHook{})
}

// RecordBoardVia is RecordBoard for a board that interaction webhook hook
// can edit (while its token lives), off the bot token's global limit.
func (s *Store) RecordBoardVia(ctx context.Context, gameID int64, seq int, messageID string, hook BoardHook) error {
	return s.tx(ctx, func(tx *sql.Tx) error {
		if messageID != "" {
			now := s.now()
			if err := setMessageID(ctx, tx, gameID, messageID, now); err != nil {
				return err
			}
			if err := dropPendingBoard(ctx, tx, gameID, hook); err != nil {
				return err
			}
			if err := s.recordBoard(ctx, tx, gameID, seq, messageID, hook, now); err != nil {
				return err
			}
		}
		if seq > 0 {
			return s.cancelPings(ctx, tx, gameID, seq)
		}
		return nil
	})
}

// Cancel drops claimed message id without sending it (a fallback ping
// found needless at delivery).
func (s *Store) Cancel(ctx context.Context, id int64, reason string) error {
	return s.outboxDone(ctx, id, OutboxCancelled, "", reason)
}

// Enqueue queues m on its own (for messages that report no state change).
func (s *Store) Enqueue(ctx context.Context, m Message) (int64, error) {
	var id int64
	err := s.tx(ctx, func(tx *sql.Tx) error {
		var err error
		id, err = s.enqueue(ctx, tx, m)
		return err
	})
	if err != nil {
		return 0, fmt.Errorf("queue message for %s: %w", m.Channel, err)
	}
	return id, nil
}

// ClaimOutbox leases up to limit pending messages due at now, oldest first,
// until now+lease. A message waits while an earlier one of its channel is
// still pending and not due (backing off; a fallback ping waiting for its
// first try does not count: it is not late) or held by another claim, so a
// channel's messages arrive in the order they were queued. A deliverer that dies lets the lease run out and the
// message is claimed again (with the same nonce).
func (s *Store) ClaimOutbox(ctx context.Context, now time.Time, lease time.Duration, limit int) ([]Message, error) {
	var out []Message
	err := s.tx(ctx, func(tx *sql.Tx) error {
		// The outer state and claimed_until tests repeat the subquery's: on
		// PostgreSQL (READ COMMITTED) a row another claimer leased or sent
		// while this statement waited for its lock is re-checked against
		// them and skipped; the subquery's snapshot alone would claim it
		// again.
		// On PostgreSQL the subquery also skips rows another claimer has
		// locked rather than waiting for them (waiting claimers could lock
		// rows in different orders and deadlock).
		lock := ""
		if s.pg {
			lock = " FOR UPDATE SKIP LOCKED"
		}
		var err error
		out, err = queryAll(ctx, tx, scanMessage, `UPDATE outbox SET attempts=attempts+1, claimed_until=?
			WHERE id IN (SELECT id FROM outbox o WHERE state=? AND due_at<=? AND claimed_until<=?
				AND NOT EXISTS (SELECT 1 FROM outbox e WHERE e.channel=o.channel AND e.state=? AND e.id<o.id
					AND (e.due_at>? AND NOT (e.kind=? AND e.attempts=0) OR e.claimed_until>?))
				ORDER BY due_at, id LIMIT ?`+lock+`)
			AND state=? AND claimed_until<=?
			RETURNING id, channel, nonce, payload, due_at, attempts, kind, game_id, seq`,
			now.Add(lease).UnixNano(), OutboxPending, now.UnixNano(), now.UnixNano(), OutboxPending, now.UnixNano(), OutboxPing, now.UnixNano(), limit,
			OutboxPending, now.UnixNano())
		return err
	})
	if err != nil {
		return nil, fmt.Errorf("claim outbox: %w", err)
	}
	sortByDue(out, func(m Message) (time.Time, int64) { return m.Due, m.ID })
	return out, nil
}

// scanMessage reads id, channel, nonce, payload, due_at, attempts, kind,
// game_id, seq.
func scanMessage(r scanner) (Message, error) {
	var m Message
	var due int64
	if err := r.Scan(&m.ID, &m.Channel, &m.Nonce, &m.Payload, &due, &m.Attempts, &m.Kind, &m.Game, &m.Seq); err != nil {
		return Message{}, err
	}
	m.Due = fromNanos(due)
	return m, nil
}

// MarkSent records that Discord took message id as messageID.
func (s *Store) MarkSent(ctx context.Context, id int64, messageID string) error {
	return s.outboxDone(ctx, id, OutboxSent, messageID, "")
}

// GiveUp records that message id will not be sent (logged by the caller).
func (s *Store) GiveUp(ctx context.Context, id int64, reason string) error {
	return s.outboxDone(ctx, id, OutboxFailed, "", reason)
}

func (s *Store) outboxDone(ctx context.Context, id int64, state, messageID, reason string) error {
	return s.tx(ctx, func(tx *sql.Tx) error {
		_, err := tx.ExecContext(ctx, `UPDATE outbox SET state=?, message_id=?, last_error=?, done_at=?, claimed_until=0 WHERE id=?`,
			state, messageID, reason, s.now().UnixNano(), id)
		if err != nil {
			return fmt.Errorf("outbox %d -> %s: %w", id, state, err)
		}
		return nil
	})
}

// Hold keeps claimed message id for the next interaction with its game:
// Discord refused it where the bot is not a member (reason says how).
func (s *Store) Hold(ctx context.Context, id int64, reason string) error {
	return s.outboxDone(ctx, id, OutboxHeld, "", reason)
}

// HeldPosts are the posts held for game (Hold), oldest first.
func (s *Store) HeldPosts(ctx context.Context, game int64) ([]OutboxEntry, error) {
	out, err := queryAll(ctx, s.r, scanOutboxEntry, `SELECT id, channel, nonce, payload, due_at, attempts, state, message_id, last_error, kind, game_id, seq, created_at
		FROM outbox WHERE game_id=? AND state=? ORDER BY id`, game, OutboxHeld)
	if err != nil {
		return nil, fmt.Errorf("held posts of game %d: %w", game, err)
	}
	return out, nil
}

// HeldPostsIn are the posts held for the games of channel, oldest first:
// the next interaction there shows them.
func (s *Store) HeldPostsIn(ctx context.Context, channel string) ([]OutboxEntry, error) {
	out, err := queryAll(ctx, s.r, scanOutboxEntry, `SELECT id, channel, nonce, payload, due_at, attempts, state, message_id, last_error, kind, game_id, seq, created_at
		FROM outbox WHERE channel=? AND state=? ORDER BY id`, channel, OutboxHeld)
	if err != nil {
		return nil, fmt.Errorf("held posts in %s: %w", channel, err)
	}
	return out, nil
}

// ShowHeld marks held posts ids as shown (in an interaction's answer, or
// sent to a player's DM as messageID). It reports how many were still
// held: two interactions racing show each post once.
func (s *Store) ShowHeld(ctx context.Context, ids []int64, messageID string) (int, error) {
	var n int64
	err := s.tx(ctx, func(tx *sql.Tx) error {
		for _, id := range ids {
			res, err := tx.ExecContext(ctx, `UPDATE outbox SET state=?, message_id=?, done_at=? WHERE id=? AND state=?`,
				OutboxShown, messageID, s.now().UnixNano(), id, OutboxHeld)
			if err != nil {
				return err
			}
			k, _ := res.RowsAffected()
			n += k
		}
		return nil
	})
	if err != nil {
		return 0, fmt.Errorf("show held posts: %w", err)
	}
	return int(n), nil
}

// Retry puts a claimed message back to be tried at next, or later when a
// hold (HoldKind) already set a later time. The claim counted an attempt.
func (s *Store) Retry(ctx context.Context, id int64, next time.Time, reason string) error {
	return s.putBack(ctx, id, next, reason, false)
}

// Postpone puts a claimed message back like Retry but gives back the
// attempt its claim counted: the message was not tried (it waits behind a
// failed earlier one of its channel) or Discord's rate limit refused it,
// which says nothing of the message. Otherwise such waits would use up
// the attempts a deliverer allows before giving a message up. A fallback
// ping keeps a count of at least 1: once claimed it is late and holds back
// its channel's later messages (ClaimOutbox).
func (s *Store) Postpone(ctx context.Context, id int64, next time.Time, reason string) error {
	return s.putBack(ctx, id, next, reason, true)
}

func (s *Store) putBack(ctx context.Context, id int64, next time.Time, reason string, giveBack bool) error {
	attempts, args := "attempts", []any{}
	if giveBack {
		attempts, args = "CASE WHEN attempts > 1 OR kind <> ? THEN attempts - 1 ELSE attempts END", []any{OutboxPing}
	}
	return s.tx(ctx, func(tx *sql.Tx) error {
		_, err := tx.ExecContext(ctx, `UPDATE outbox SET due_at=CASE WHEN due_at > ? THEN due_at ELSE ? END, claimed_until=0, last_error=?, attempts=`+attempts+` WHERE id=? AND state=?`,
			slices.Concat([]any{next.UnixNano(), next.UnixNano(), reason}, args, []any{id, OutboxPending})...)
		if err != nil {
			return fmt.Errorf("retry outbox %d: %w", id, err)
		}
		return nil
	})
}

// OutboxEntry is a message as the outbox holds it, for tests and checks.
type OutboxEntry struct {
	Message
	State     string
	MessageID string
	LastError string
	Created   time.Time // when it was queued
}

// Outbox lists every message still held (pending, sent or given up), oldest first.
func (s *Store) Outbox(ctx context.Context) ([]OutboxEntry, error) {
	out, err := queryAll(ctx, s.r, scanOutboxEntry, `SELECT id, channel, nonce, payload, due_at, attempts, state, message_id, last_error, kind, game_id, seq, created_at FROM outbox ORDER BY id`)
	if err != nil {
		return nil, fmt.Errorf("outbox: %w", err)
	}
	return out, nil
}

func scanOutboxEntry(r scanner) (OutboxEntry, error) {
	var e OutboxEntry
	var due, created int64
	if err := r.Scan(&e.ID, &e.Channel, &e.Nonce, &e.Payload, &due, &e.Attempts, &e.State, &e.MessageID, &e.LastError, &e.Kind, &e.Game, &e.Seq, &created); err != nil {
		return OutboxEntry{}, err
	}
	e.Due, e.Created = fromNanos(due), fromNanos(created)
	return e, nil
}

// Purge deletes completed events, delivered (or given-up) outbox rows and
// stripped boards finished before before, and the interaction ids seen
// before it (kept InteractionMemory at least), and reports how many rows
// went.
func (s *Store) Purge(ctx context.Context, before time.Time) (int64, error) {
	var n int64
	err := s.tx(ctx, func(tx *sql.Tx) error {
		for _, q := range []string{
			`DELETE FROM events WHERE done=1 AND done_at<?`,
			`DELETE FROM outbox WHERE state NOT IN ('pending', 'held') AND done_at<?`,
			// The newest board of a game is never stripped, so dropping
			// stripped ones never hides what superseded a live one.
			`DELETE FROM boards WHERE live=0 AND recorded_at<?`,
		} {
			res, err := tx.ExecContext(ctx, q, before.UnixNano())
			if err != nil {
				return err
			}
			k, _ := res.RowsAffected()
			n += k
		}
		k, err := s.purgeInteractions(ctx, tx, before)
		n += k
		if err != nil {
			return err
		}
		// Interaction tokens are useless once their 15 minutes are over:
		// those older than before are cleared (the boards stay), never
		// one that may still work.
		cut := before
		if latest := s.now().Add(-BoardHookLife); cut.After(latest) {
			cut = latest
		}
		if _, err := tx.ExecContext(ctx, `UPDATE boards SET hook_token='', hook_message='' WHERE hook_token<>'' AND hook_at<?`,
			cut.UnixNano()); err != nil {
			return err
		}
		// COMMIT outcomes are looked up within seconds (pgTx).
		res, err := tx.ExecContext(ctx, `DELETE FROM tx_done WHERE at<?`, s.now().Add(-24*time.Hour).UnixNano())
		if err != nil {
			return err
		}
		k, _ = res.RowsAffected()
		n += k
		return nil
	})
	if err != nil {
		return 0, fmt.Errorf("purge: %w", err)
	}
	return n, nil
}
