package store

import (
	"context"
	"crypto/sha256"
	"database/sql"
	"encoding/hex"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"
)

// OutboxStrip is the Kind of an outbox post that removes the buttons of a
// game's superseded boards (Message.Game says which game). Its Channel is
// StripChannelPrefix, the game id, ":" and a random tag, not a Discord
// channel: a strip post is a lane of its own, so it never holds up the
// posts of the channel the game is played in, nor waits behind another
// strip post's backoff (they need no order: each reads the boards when it
// runs).
const OutboxStrip = "strip"

// StripChannelPrefix starts the outbox channel of every strip post.
const StripChannelPrefix = "boards:"

func stripChannel(game int64) string {
	return StripChannelPrefix + strconv.FormatInt(game, 10) + ":" + newNonce()[:8]
}

// BoardHookLife is how long an interaction's token works (Discord: 15
// minutes from the interaction's creation).
const BoardHookLife = 15 * time.Minute

// Board is a message showing a game's board at sequence Seq.
type Board struct {
	Game     int64
	Channel  string
	Message  string
	Seq      int
	Live     bool // still has its buttons, as far as the database knows
	Recorded time.Time
	// Hook is the interaction webhook the message can be edited through
	// (zero when it was posted with the bot token).
	Hook BoardHook
}

// BoardHook is the interaction webhook that made (or last answered with) a
// board message: Token is the interaction's token, a secret never to log;
// Message is "@original" or the follow-up's message id; Issued is when the
// interaction was created (its token works for 15 minutes from then).
type BoardHook struct {
	Token, Message string
	Issued         time.Time
}

// PendingBoardPrefix starts the message id of a board recorded before its
// message exists (RecordPendingBoard).
const PendingBoardPrefix = "pending:"

// IsPendingBoard reports whether messageID stands for a board whose message
// id is not known: it can only be edited through its hook.
func IsPendingBoard(messageID string) bool { return strings.HasPrefix(messageID, PendingBoardPrefix) }

// RecordPendingBoard records, before a board is sent as the answer to an
// interaction, that the interaction's hook (Message "@original") is about to
// show the board of game at seq. Should the process die between Discord
// taking the answer and RecordBoardVia, the board is still known: once a
// newer board supersedes it, the strip post removes its buttons through
// the hook (while the token lives; afterwards, or when nothing was posted,
// it is dropped as gone). RecordBoardVia with the same hook token replaces
// it by the real message.
func (s *Store) RecordPendingBoard(ctx context.Context, gameID int64, seq int, hook BoardHook) error {
	if hook.Token == "" {
		return fmt.Errorf("pending board of game %d: no hook", gameID)
	}
	sum := sha256.Sum256([]byte(hook.Token))
	id := PendingBoardPrefix + hex.EncodeToString(sum[:8])
	return s.tx(ctx, func(tx *sql.Tx) error {
		return s.recordBoard(ctx, tx, gameID, seq, id, hook, s.now())
	})
}

// PendingBoard is the pending board of game at seq still waiting for its
// message id (ErrNotFound when there is none).
func (s *Store) PendingBoard(ctx context.Context, gameID int64, seq int) (Board, error) {
	bs, err := s.boards(ctx, `SELECT game_id, channel_id, message_id, seq, live, recorded_at, hook_token, hook_message, hook_at
		FROM boards WHERE game_id=? AND seq=`+strconv.Itoa(seq)+` AND message_id LIKE '`+PendingBoardPrefix+`%' ORDER BY id DESC`, gameID)
	if err != nil {
		return Board{}, err
	}
	if len(bs) == 0 {
		return Board{}, ErrNotFound
	}
	return bs[0], nil
}

// dropPendingBoard removes the pending board of hook's interaction, now
// that its message is recorded.
func dropPendingBoard(ctx context.Context, tx *sql.Tx, gameID int64, hook BoardHook) error {
	if hook.Token == "" {
		return nil
	}
	_, err := tx.ExecContext(ctx, `DELETE FROM boards WHERE game_id=? AND hook_token=? AND message_id LIKE ?`,
		gameID, hook.Token, PendingBoardPrefix+"%")
	if err != nil {
		return fmt.Errorf("drop the pending board of game %d: %w", gameID, err)
	}
	return nil
}

// recordBoard adds (or moves to a higher seq) the board message of game in
// tx, at the seq its buttons carry (0: a new game's first board; below 0:
// unknown, the game's seq now). When the game has another
// live board, one of the two is superseded: a strip post is queued. The
// caller's UPDATE of the games row comes first, so on PostgreSQL two
// boards of a game recorded at once take turns on that row lock and the
// second sees the first.
//
// A board recorded again with a webhook (an interaction that updated the
// message) keeps the freshest one.
func (s *Store) recordBoard(ctx context.Context, tx *sql.Tx, game int64, seq int, messageID string, hook BoardHook, now time.Time) error {
	var hookAt int64
	if hook.Token != "" {
		hookAt = hook.Issued.UnixNano()
	}
	res, err := tx.ExecContext(ctx, `INSERT INTO boards(game_id, message_id, channel_id, seq, live, recorded_at, hook_token, hook_message, hook_at)
		SELECT id, ?, CASE WHEN thread <> '' THEN thread ELSE channel END, CASE WHEN ? < 0 THEN seq ELSE ? END, 1, ?, ?, ?, ? FROM games WHERE id=?
		ON CONFLICT(game_id, message_id) DO UPDATE SET
			live=CASE WHEN excluded.seq > boards.seq THEN 1 ELSE boards.live END,
			seq=CASE WHEN excluded.seq > boards.seq THEN excluded.seq ELSE boards.seq END,
			hook_token=CASE WHEN excluded.hook_at > boards.hook_at THEN excluded.hook_token ELSE boards.hook_token END,
			hook_message=CASE WHEN excluded.hook_at > boards.hook_at THEN excluded.hook_message ELSE boards.hook_message END,
			hook_at=CASE WHEN excluded.hook_at > boards.hook_at THEN excluded.hook_at ELSE boards.hook_at END`,
		messageID, seq, seq, now.UnixNano(), hook.Token, hook.Message, hookAt, game)
	if err != nil {
		return fmt.Errorf("record board %s of game %d: %w", messageID, game, err)
	}
	if n, _ := res.RowsAffected(); n == 0 {
		return fmt.Errorf("record board of game %d: %w", game, ErrNotFound)
	}
	var others int
	if err := tx.QueryRowContext(ctx, `SELECT COUNT(*) FROM boards WHERE game_id=? AND live=1 AND message_id<>?`, game, messageID).Scan(&others); err != nil {
		return fmt.Errorf("record board of game %d: %w", game, err)
	}
	if others == 0 {
		return nil
	}
	// One waiting strip post per game is enough: it reads the boards when
	// it runs, so it will see this one. Waiting means not claimed (a claimed
	// one may have read them already). On PostgreSQL the row lock makes a
	// claim of that post wait for this commit (then it sees the board), or
	// this read wait for the claim's (then the post no longer qualifies).
	lock := ""
	if s.pg {
		lock = " FOR UPDATE"
	}
	var waiting int64
	err = tx.QueryRowContext(ctx, `SELECT id FROM outbox WHERE kind=? AND game_id=? AND state=? AND claimed_until=0 LIMIT 1`+lock,
		OutboxStrip, game, OutboxPending).Scan(&waiting)
	if err == nil {
		return nil
	}
	if !errors.Is(err, sql.ErrNoRows) {
		return fmt.Errorf("record board of game %d: %w", game, err)
	}
	_, err = s.enqueue(ctx, tx, Message{Channel: stripChannel(game), Payload: "{}", Kind: OutboxStrip, Game: game})
	if err != nil {
		return fmt.Errorf("queue strip of game %d: %w", game, err)
	}
	return nil
}

// supersededWhere picks the boards of game b that a newer board replaced:
// one at a higher seq, or at the same seq recorded later (a duplicate).
const supersededWhere = `b.game_id=? AND b.live=1 AND EXISTS (SELECT 1 FROM boards n WHERE n.game_id=b.game_id
	AND (n.seq > b.seq OR n.seq = b.seq AND n.id > b.id))`

// SupersededBoards are the boards of game that still have their buttons
// although a newer board exists, oldest first: what a strip post removes.
func (s *Store) SupersededBoards(ctx context.Context, game int64) ([]Board, error) {
	return s.boards(ctx, `SELECT b.game_id, b.channel_id, b.message_id, b.seq, b.live, b.recorded_at, b.hook_token, b.hook_message, b.hook_at FROM boards b WHERE `+supersededWhere+` ORDER BY b.seq, b.id`, game)
}

// Boards are every recorded board of game, oldest first (tests, checks).
func (s *Store) Boards(ctx context.Context, game int64) ([]Board, error) {
	return s.boards(ctx, `SELECT game_id, channel_id, message_id, seq, live, recorded_at, hook_token, hook_message, hook_at FROM boards WHERE game_id=? ORDER BY seq, id`, game)
}

// SupersededLive counts, over every game, the boards still live although
// superseded (0 once the strip posts have drained).
func (s *Store) SupersededLive(ctx context.Context) (int, error) {
	var n int
	err := s.r.QueryRowContext(ctx, `SELECT COUNT(*) FROM boards b WHERE b.live=1 AND EXISTS (SELECT 1 FROM boards n WHERE n.game_id=b.game_id
		AND (n.seq > b.seq OR n.seq = b.seq AND n.id > b.id))`).Scan(&n)
	if err != nil {
		return 0, fmt.Errorf("count superseded boards: %w", err)
	}
	return n, nil
}

func (s *Store) boards(ctx context.Context, q string, game int64) ([]Board, error) {
	out, err := queryAll(ctx, s.r, scanBoard, q, game)
	if err != nil {
		return nil, fmt.Errorf("boards of game %d: %w", game, err)
	}
	return out, nil
}

func scanBoard(r scanner) (Board, error) {
	var b Board
	var at, hookAt int64
	if err := r.Scan(&b.Game, &b.Channel, &b.Message, &b.Seq, &b.Live, &at, &b.Hook.Token, &b.Hook.Message, &hookAt); err != nil {
		return Board{}, err
	}
	b.Recorded = fromNanos(at)
	if b.Hook.Token != "" {
		b.Hook.Issued = fromNanos(hookAt)
	}
	return b, nil
}

// BoardStripped records that the board message of game lost its buttons
// (or is gone from Discord): it is never stripped again, and its
// interaction token is forgotten.
func (s *Store) BoardStripped(ctx context.Context, game int64, messageID string) error {
	return s.tx(ctx, func(tx *sql.Tx) error {
		_, err := tx.ExecContext(ctx, `UPDATE boards SET live=0, hook_token='', hook_message='' WHERE game_id=? AND message_id=?`, game, messageID)
		if err != nil {
			return fmt.Errorf("board %s of game %d stripped: %w", messageID, game, err)
		}
		return nil
	})
}

// HoldKind moves every pending outbox post of kind due before until to
// until: a global rate limit holds the whole fleet's strips at once. Posts
// claimed right now keep their claim (their deliverer reschedules them).
func (s *Store) HoldKind(ctx context.Context, kind string, until time.Time) error {
	return s.tx(ctx, func(tx *sql.Tx) error {
		_, err := tx.ExecContext(ctx, `UPDATE outbox SET due_at=? WHERE kind=? AND state=? AND due_at<?`,
			until.UnixNano(), kind, OutboxPending, until.UnixNano())
		if err != nil {
			return fmt.Errorf("hold %s posts: %w", kind, err)
		}
		return nil
	})
}

// HoldOutbox moves every pending outbox post due before until to until:
// Discord's global rate limit holds all of the bot token's requests.
// Posts claimed right now keep their claim.
func (s *Store) HoldOutbox(ctx context.Context, until time.Time) error {
	return s.tx(ctx, func(tx *sql.Tx) error {
		_, err := tx.ExecContext(ctx, `UPDATE outbox SET due_at=? WHERE state=? AND due_at<?`,
			until.UnixNano(), OutboxPending, until.UnixNano())
		if err != nil {
			return fmt.Errorf("hold posts: %w", err)
		}
		return nil
	})
}
