package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"
)

// Players' data rights: everything stored about a user, exported in one
// read, or erased in one transaction.

// DeletedPlayer replaces an erased user's id (and, through Scrub, their
// name) in the records other players keep.
const DeletedPlayer = "deleted player"

// ReasonErased ends the active games of an erased player: aborted, without
// a result, never rated.
const ReasonErased = "player data deleted"

// UserData is everything the store holds about one user.
type UserData struct {
	User        string
	Exported    time.Time
	Profile     *Player // nil when none was saved
	Ratings     []*PlayerRating
	Changes     []RatingChange   // the user's own rating changes, game by game
	Games       []UserGame       // every game they played, with its moves
	Challenges  []*Challenge     // challenges they made or received
	Daily       []DailyAttempt   `json:",omitempty"` // the servers' daily puzzles they opened
	Tournaments []UserTournament // tournaments they created or entered
	Puzzles     UserPuzzles      // puzzles they solved or tried
	Reviews     []*GameReview    // stored reviews of their games
	Backend     string
	SchemaLevel int
}

// UserGame is one of the user's games with its move log.
type UserGame struct {
	*Game
	Moves []MoveRecord
}

// UserTournament is a tournament the user created or entered: the event,
// their entry (nil for an organiser who did not play) and the boards they
// were paired on.
type UserTournament struct {
	*Tournament
	Creator  bool
	Entry    *TournamentEntrant
	Pairings []TournamentPairing
}

// UserPuzzles is the user's puzzle record.
type UserPuzzles struct {
	Active   *ActivePuzzle `json:",omitempty"`
	Ratings  []*PuzzleRating
	Attempts []PuzzleAttempt
}

// PuzzleAttempt is a first attempt at a puzzle.
type PuzzleAttempt struct {
	PuzzleID, Game string
	Solved, Hinted bool
	At             time.Time
}

// ExportUser reads everything stored about user in one read transaction
// (one consistent snapshot). A user the bot never saw gives empty lists and
// no profile, not an error.
func (s *Store) ExportUser(ctx context.Context, user string) (*UserData, error) {
	if user == "" || user == DeletedPlayer {
		return nil, fmt.Errorf("export user %q: not a user id", user)
	}
	opts := &sql.TxOptions{ReadOnly: true}
	if s.pg {
		opts.Isolation = sql.LevelRepeatableRead // one snapshot for every query
	}
	tx, err := s.r.BeginTx(ctx, opts)
	if err != nil {
		return nil, fmt.Errorf("export user %s: %w", user, err)
	}
	defer tx.Rollback()
	d := &UserData{User: user, Exported: s.now().UTC(), Backend: s.Backend()}
	fail := func(what string, err error) (*UserData, error) {
		return nil, fmt.Errorf("export user %s: %s: %w", user, what, err)
	}
	if err := tx.QueryRowContext(ctx, `SELECT COALESCE(MAX(version), 0) FROM schema_version`).Scan(&d.SchemaLevel); err != nil {
		return fail("schema", err)
	}
	p := Player{ID: user}
	err = scanPlayer(tx.QueryRowContext(ctx, `SELECT `+playerCols+` FROM players WHERE id=?`, user), &p)
	switch {
	case err == nil:
		d.Profile = &p
	case !errors.Is(err, sql.ErrNoRows):
		return fail("profile", err)
	}
	if d.Ratings, err = queryAll(ctx, tx, scanRating, `SELECT `+ratingCols+` FROM ratings WHERE player=? ORDER BY guild, kind`, user); err != nil {
		return fail("ratings", err)
	}
	d.Changes, err = queryAll(ctx, tx, func(r scanner) (RatingChange, error) {
		c := RatingChange{Player: user}
		var at int64
		if err := r.Scan(&c.GameID, &c.Side, &c.Before.Rating, &c.Before.RD, &c.After.Rating, &c.After.RD, &c.After.Vol, &at); err != nil {
			return RatingChange{}, err
		}
		c.At = fromNanos(at)
		return c, nil
	}, `SELECT game_id, side, rating_before, rd_before, rating_after, rd_after, vol_after, at
		FROM rating_changes WHERE player=? ORDER BY at, game_id`, user)
	if err != nil {
		return fail("rating changes", err)
	}
	d.Games, err = queryAll(ctx, tx, func(r scanner) (UserGame, error) {
		g, err := scanGame(r)
		return UserGame{Game: g}, err
	}, `SELECT `+gameCols+` FROM games WHERE player0=? OR player1=? ORDER BY id`, user, user)
	if err != nil {
		return fail("games", err)
	}
	for i := range d.Games {
		if d.Games[i].Moves, err = moves(ctx, tx, d.Games[i].ID); err != nil {
			return fail("moves", err)
		}
	}
	if d.Challenges, err = queryAll(ctx, tx, scanChallenge, `SELECT `+challengeCols+` FROM challenges WHERE challenger=? OR challenged=? ORDER BY id`, user, user); err != nil {
		return fail("challenges", err)
	}
	if d.Daily, err = dailyAttempts(ctx, tx, user); err != nil {
		return fail("daily puzzles", err)
	}
	if d.Tournaments, err = userTournaments(ctx, tx, user); err != nil {
		return fail("tournaments", err)
	}
	if d.Puzzles, err = userPuzzles(ctx, tx, user); err != nil {
		return fail("puzzles", err)
	}
	d.Reviews, err = queryAll(ctx, tx, func(r scanner) (*GameReview, error) {
		var rv GameReview
		var at int64
		err := r.Scan(&rv.GameID, &rv.Summary, &rv.Annotated, &at)
		rv.Created = fromNanos(at)
		return &rv, err
	}, `SELECT r.game_id, r.summary, r.annotated, r.created_at FROM game_reviews r JOIN games g ON g.id = r.game_id
		WHERE g.player0=? OR g.player1=? ORDER BY r.game_id`, user, user)
	if err != nil {
		return fail("reviews", err)
	}
	return d, nil
}

func userTournaments(ctx context.Context, tx *sql.Tx, user string) ([]UserTournament, error) {
	ts, err := queryAll(ctx, tx, scanTournament, `SELECT `+tournamentCols+` FROM tournaments WHERE creator=?
		OR id IN (SELECT tournament_id FROM tournament_entrants WHERE player=?) ORDER BY id`, user, user)
	if err != nil {
		return nil, err
	}
	out := make([]UserTournament, 0, len(ts))
	for _, t := range ts {
		ut := UserTournament{Tournament: t, Creator: t.Creator == user}
		es, err := queryAll(ctx, tx, scanEntrant, `SELECT player, rating, joined_at, withdrawn, withdrawn_round, name, ai_level
			FROM tournament_entrants WHERE tournament_id=? AND player=?`, t.ID, user)
		if err != nil {
			return nil, err
		}
		if len(es) == 1 {
			ut.Entry = &es[0]
		}
		if ut.Pairings, err = queryAll(ctx, tx, scanPairing, `SELECT round, board, white, black, game_id, result
			FROM tournament_pairings WHERE tournament_id=? AND (white=? OR black=?) ORDER BY round, board`, t.ID, user, user); err != nil {
			return nil, err
		}
		out = append(out, ut)
	}
	return out, nil
}

func userPuzzles(ctx context.Context, tx *sql.Tx, user string) (UserPuzzles, error) {
	var p UserPuzzles
	act, err := queryAll(ctx, tx, func(r scanner) (*ActivePuzzle, error) {
		a := ActivePuzzle{Player: user}
		var hinted int
		var at int64
		err := r.Scan(&a.Game, &a.PuzzleID, &a.Step, &hinted, &at)
		a.Hinted, a.Started = hinted != 0, fromNanos(at)
		return &a, err
	}, `SELECT game, puzzle_id, step, hinted, started_at FROM puzzle_active WHERE player=?`, user)
	if err != nil {
		return p, err
	}
	if len(act) > 0 {
		p.Active = act[0]
	}
	if p.Ratings, err = queryAll(ctx, tx, scanPuzzleRating, `SELECT `+puzzleRatingCols+` FROM puzzle_ratings WHERE player=? ORDER BY game`, user); err != nil {
		return p, err
	}
	p.Attempts, err = queryAll(ctx, tx, func(r scanner) (PuzzleAttempt, error) {
		var a PuzzleAttempt
		var solved, hinted int
		var at int64
		err := r.Scan(&a.PuzzleID, &a.Game, &solved, &hinted, &at)
		a.Solved, a.Hinted, a.At = solved != 0, hinted != 0, fromNanos(at)
		return a, err
	}, `SELECT puzzle_id, game, solved, hinted, at FROM puzzle_attempts WHERE player=? ORDER BY at, puzzle_id`, user)
	return p, err
}

// Scrub rewrites the caller's opaque Extra of a game or challenge so that
// it no longer names the erased player, who plays side (0 or 1; for a
// challenge 0 is the challenger). The store cannot read Extra itself; the
// name columns it replaces itself.
type Scrub struct {
	Game      func(extra string, side int) (string, error)
	Challenge func(extra string, side int) (string, error)
}

// Erased counts what DeleteUser changed.
type Erased struct {
	Profiles, Ratings, RatingChanges, Games, Aborted, Challenges int64
	Tournaments, Entries, Pairings                               int64 // renamed (entries in sign-up are removed)
	Puzzles                                                      int64 // active puzzle, puzzle ratings and attempts removed
	Derived                                                      int64 // reviews and pictures of their games removed
	Outbox                                                       int64 // queued or sent posts that named them, removed
}

// DeleteUser erases user in one transaction: their profile and ratings are
// removed; in games, rating changes and challenges their id becomes
// DeletedPlayer and scrub removes their name from the rows' Extra, so the
// other players keep their records (moves, results, their own ratings).
// Their active games are aborted (ReasonErased, no result, not rated) and
// their pending challenges cancelled. Deleting a user the store does not
// know changes nothing and is not an error.
func (s *Store) DeleteUser(ctx context.Context, user string, scrub Scrub) (Erased, error) {
	var e Erased
	if user == "" || user == DeletedPlayer {
		return e, fmt.Errorf("delete user %q: not a user id", user)
	}
	now := s.now().UnixNano()
	err := s.tx(ctx, func(tx *sql.Tx) error {
		exec := func(n *int64, q string, args ...any) error {
			res, err := tx.ExecContext(ctx, q, args...)
			if err != nil {
				return err
			}
			c, err := res.RowsAffected()
			*n += c
			return err
		}
		// What names them, read before anything is renamed.
		names, err := userNames(ctx, tx, user)
		if err != nil {
			return fmt.Errorf("names: %w", err)
		}
		gameIDs, err := queryAll(ctx, tx, func(r scanner) (int64, error) {
			var id int64
			return id, r.Scan(&id)
		}, `SELECT id FROM games WHERE player0=? OR player1=? ORDER BY id`, user, user)
		if err != nil {
			return fmt.Errorf("games: %w", err)
		}
		if err := exec(&e.Profiles, `DELETE FROM players WHERE id=?`, user); err != nil {
			return fmt.Errorf("profile: %w", err)
		}
		for _, t := range []string{"puzzle_active", "puzzle_ratings", "puzzle_attempts"} {
			if err := exec(&e.Puzzles, `DELETE FROM `+t+` WHERE player=?`, user); err != nil {
				return fmt.Errorf("%s: %w", t, err)
			}
		}
		for _, id := range gameIDs {
			// Derived from the game and naming its players: a later
			// request redraws them from the renamed game.
			for _, t := range []string{"game_reviews", "game_renders"} {
				if err := exec(&e.Derived, `DELETE FROM `+t+` WHERE game_id=?`, id); err != nil {
					return fmt.Errorf("%s of game %d: %w", t, id, err)
				}
			}
		}
		if err := eraseTournaments(ctx, tx, user, exec, &e, now); err != nil {
			return fmt.Errorf("tournaments: %w", err)
		}
		if err := eraseOutbox(ctx, tx, user, names, gameIDs, exec, &e); err != nil {
			return fmt.Errorf("outbox: %w", err)
		}
		if err := exec(&e.Ratings, `DELETE FROM ratings WHERE player=?`, user); err != nil {
			return fmt.Errorf("ratings: %w", err)
		}
		var daily int64 // the daily puzzles they opened (names shown in posts)
		if err := exec(&daily, `DELETE FROM daily_solvers WHERE player=?`, user); err != nil {
			return fmt.Errorf("daily puzzles: %w", err)
		}
		if err := exec(&e.RatingChanges, `UPDATE rating_changes SET player=? WHERE player=?`, DeletedPlayer, user); err != nil {
			return fmt.Errorf("rating changes: %w", err)
		}
		// Abort first: the active-pair index then never sees two
		// "deleted player" games against one opponent in one channel.
		if err := exec(&e.Aborted, `UPDATE games SET rev=rev+1, status=?, result='', reason=?, draw_offer=0, takeback=0, rated=0, updated_at=?
			WHERE status=? AND (player0=? OR player1=?)`, StatusFinished, ReasonErased, now, StatusActive, user, user); err != nil {
			return fmt.Errorf("abort active games: %w", err)
		}
		type row struct {
			id    int64
			side  int
			extra string
		}
		read := func(q string) ([]row, error) {
			return queryAll(ctx, tx, func(r scanner) (row, error) {
				var x row
				err := r.Scan(&x.id, &x.side, &x.extra)
				return x, err
			}, q, user, user)
		}
		games, err := read(`SELECT id, CASE WHEN player0=? THEN 0 ELSE 1 END, extra FROM games WHERE ? IN (player0, player1) ORDER BY id`)
		if err != nil {
			return fmt.Errorf("games: %w", err)
		}
		for _, g := range games {
			extra := g.extra
			if scrub.Game != nil {
				if extra, err = scrub.Game(extra, g.side); err != nil {
					return fmt.Errorf("scrub game %d: %w", g.id, err)
				}
			}
			// A game against oneself names the user on both sides.
			// SET reads the old row, so each CASE sees the id being replaced.
			if err := exec(&e.Games, `UPDATE games SET rev=rev+1, extra=?, updated_at=?,
				name0=CASE WHEN player0=? THEN ? ELSE name0 END, name1=CASE WHEN player1=? THEN ? ELSE name1 END,
				player0=CASE WHEN player0=? THEN ? ELSE player0 END, player1=CASE WHEN player1=? THEN ? ELSE player1 END WHERE id=?`,
				extra, now, user, DeletedPlayer, user, DeletedPlayer, user, DeletedPlayer, user, DeletedPlayer, g.id); err != nil {
				return fmt.Errorf("game %d: %w", g.id, err)
			}
		}
		var cancelled int64
		if err := exec(&cancelled, `UPDATE challenges SET status=? WHERE status=? AND (challenger=? OR challenged=?)`,
			ChallengeCancelled, ChallengePending, user, user); err != nil {
			return fmt.Errorf("cancel challenges: %w", err)
		}
		chs, err := read(`SELECT id, CASE WHEN challenger=? THEN 0 ELSE 1 END, extra FROM challenges WHERE ? IN (challenger, challenged) ORDER BY id`)
		if err != nil {
			return fmt.Errorf("challenges: %w", err)
		}
		for _, c := range chs {
			extra := c.extra
			if scrub.Challenge != nil {
				if extra, err = scrub.Challenge(extra, c.side); err != nil {
					return fmt.Errorf("scrub challenge %d: %w", c.id, err)
				}
			}
			if err := exec(&e.Challenges, `UPDATE challenges SET extra=?,
				challenger_name=CASE WHEN challenger=? THEN ? ELSE challenger_name END, challenged_name=CASE WHEN challenged=? THEN ? ELSE challenged_name END,
				challenger=CASE WHEN challenger=? THEN ? ELSE challenger END, challenged=CASE WHEN challenged=? THEN ? ELSE challenged END WHERE id=?`,
				extra, user, DeletedPlayer, user, DeletedPlayer, user, DeletedPlayer, user, DeletedPlayer, c.id); err != nil {
				return fmt.Errorf("challenge %d: %w", c.id, err)
			}
		}
		return nil
	})
	if err != nil {
		return Erased{}, fmt.Errorf("delete user %s: %w", user, err)
	}
	return e, nil
}

// execFunc runs a statement in DeleteUser's transaction and adds the rows
// it changed to a counter.
type execFunc func(n *int64, q string, args ...any) error

// userNames are the display names stored for user, as typed.
func userNames(ctx context.Context, tx *sql.Tx, user string) ([]string, error) {
	ns, err := queryAll(ctx, tx, func(r scanner) (string, error) {
		var n string
		return n, r.Scan(&n)
	}, `SELECT name FROM players WHERE id=?
		UNION SELECT name0 FROM games WHERE player0=? UNION SELECT name1 FROM games WHERE player1=?
		UNION SELECT challenger_name FROM challenges WHERE challenger=? UNION SELECT challenged_name FROM challenges WHERE challenged=?
		UNION SELECT name FROM tournament_entrants WHERE player=? UNION SELECT name FROM daily_solvers WHERE player=?`,
		user, user, user, user, user, user, user)
	if err != nil {
		return nil, err
	}
	return slices.DeleteFunc(ns, func(n string) bool { return strings.TrimSpace(n) == "" || n == DeletedPlayer }), nil
}

// eraseTournaments renames the organiser and the entrant. An entry in a
// tournament still in sign-up is removed; in a running one it is withdrawn
// (its active game was aborted); elsewhere it stays under a pseudonym,
// "deleted player N" (N its sign-up order), so that standings still add up
// and two erased entrants of one tournament stay two.
func eraseTournaments(ctx context.Context, tx *sql.Tx, user string, exec execFunc, e *Erased, now int64) error {
	if err := exec(&e.Tournaments, `UPDATE tournaments SET creator=?, updated_at=? WHERE creator=?`, DeletedPlayer, now, user); err != nil {
		return err
	}
	if err := exec(&e.Entries, `DELETE FROM tournament_entrants WHERE player=?
		AND tournament_id IN (SELECT id FROM tournaments WHERE status='signup')`, user); err != nil {
		return err
	}
	type entry struct {
		id       int64
		seq, rnd int
		running  bool
	}
	es, err := queryAll(ctx, tx, func(r scanner) (entry, error) {
		var x entry
		var status string
		err := r.Scan(&x.id, &x.seq, &x.rnd, &status)
		x.running = status == "running"
		return x, err
	}, `SELECT e.tournament_id, e.seq, t.round, t.status FROM tournament_entrants e JOIN tournaments t ON t.id = e.tournament_id
		WHERE e.player=? ORDER BY e.tournament_id`, user)
	if err != nil {
		return err
	}
	for _, x := range es {
		alias := DeletedPlayer + " " + strconv.Itoa(x.seq)
		if x.running { // their game was aborted: they leave the event
			if err := exec(new(int64), `UPDATE tournament_entrants SET withdrawn=1, withdrawn_round=?
				WHERE tournament_id=? AND player=? AND withdrawn=0`, x.rnd, x.id, user); err != nil {
				return err
			}
		}
		if err := exec(&e.Entries, `UPDATE tournament_entrants SET player=?, name=? WHERE tournament_id=? AND player=?`,
			alias, DeletedPlayer, x.id, user); err != nil {
			return err
		}
		for _, col := range []string{"white", "black"} {
			if err := exec(&e.Pairings, `UPDATE tournament_pairings SET `+col+`=? WHERE tournament_id=? AND `+col+`=?`, alias, x.id, user); err != nil {
				return err
			}
		}
	}
	// Pairings of a tournament the user left without an entry row.
	for _, col := range []string{"white", "black"} {
		if err := exec(&e.Pairings, `UPDATE tournament_pairings SET `+col+`=? WHERE `+col+`=?`, DeletedPlayer, user); err != nil {
			return err
		}
	}
	return nil
}

// eraseOutbox removes the posts, queued or already sent, of the user's
// games and every other one whose payload names them (their id, which is
// also how a mention is written, or one of their names as a word). A
// queued post would otherwise publish the name after the erasure.
func eraseOutbox(ctx context.Context, tx *sql.Tx, user string, names []string, games []int64, exec execFunc, e *Erased) error {
	for _, id := range games {
		if err := exec(&e.Outbox, `DELETE FROM outbox WHERE game_id=?`, id); err != nil {
			return err
		}
	}
	needles := []string{user}
	for _, n := range names {
		needles = append(needles, n)
		if j := jsonText(n); j != n {
			needles = append(needles, j)
		}
	}
	// Read in full and matched here: the match is on words, and the
	// dialects' substring functions differ. Erasure is rare; the outbox is
	// purged of old posts.
	type post struct {
		id      int64
		payload string
	}
	posts, err := queryAll(ctx, tx, func(r scanner) (post, error) {
		var p post
		return p, r.Scan(&p.id, &p.payload)
	}, `SELECT id, payload FROM outbox ORDER BY id`)
	if err != nil {
		return err
	}
	for _, p := range posts {
		if slices.ContainsFunc(needles, func(n string) bool { return namesWord(p.payload, n) }) {
			if err := exec(&e.Outbox, `DELETE FROM outbox WHERE id=?`, p.id); err != nil {
				return err
			}
		}
	}
	return nil
}

// jsonText is s as it appears inside a JSON string written by
// encoding/json (quotes, backslashes, <, >, & and controls escaped).
func jsonText(s string) string {
	var b strings.Builder
	for _, r := range s {
		switch {
		case r == '"' || r == '\\':
			b.WriteByte('\\')
			b.WriteRune(r)
		case r == '<' || r == '>' || r == '&' || r < 0x20 || r == '\u2028' || r == '\u2029':
			fmt.Fprintf(&b, `\u%04x`, r)
		default:
			b.WriteRune(r)
		}
	}
	return b.String()
}

// namesWord: needle occurs in s not as part of a longer word (a name
// "Al" does not match "Alice", an id not a longer number).
func namesWord(s, needle string) bool {
	word := func(r rune) bool { return unicode.IsLetter(r) || unicode.IsDigit(r) || r == '_' }
	for i := 0; ; {
		j := strings.Index(s[i:], needle)
		if j < 0 {
			return false
		}
		j += i
		before, _ := utf8.DecodeLastRuneInString(s[:j])
		after, _ := utf8.DecodeRuneInString(s[j+len(needle):])
		first, _ := utf8.DecodeRuneInString(needle)
		last, _ := utf8.DecodeLastRuneInString(needle)
		if (j == 0 || !word(before) || !word(first)) && (j+len(needle) == len(s) || !word(after) || !word(last)) {
			return true
		}
		i = j + 1
	}
}
