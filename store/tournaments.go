package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"time"
)

// Tournaments: the store keeps a tournament's settings, entrants, rounds
// and results as plain values; the rules (pairing, standings) belong to the
// caller (bot/tournament). Every change that several instances could race
// on is a compare-and-set: starting a round moves the round number from r
// to r+1 only once, a board's game and result are set only once.

// Errors of the tournament methods.
var (
	// ErrTournamentStale: the tournament (or the board) is no longer in the
	// state the caller read: another instance moved it on first.
	ErrTournamentStale = errors.New("store: the tournament moved on")
	ErrAlreadyEntered  = errors.New("store: already entered in the tournament")
	ErrTournamentFull  = errors.New("store: the tournament is full")
)

// Tournament is a stored tournament.
type Tournament struct {
	ID                      int64
	Guild, Channel, Creator string
	Kind, Variant, Clock    string
	Format                  string // round-robin, swiss, knockout
	Rounds                  int    // Swiss rounds
	Rated                   bool
	MaxPlayers              int
	SignUpDeadline          time.Time
	RoundLength             time.Duration
	Status                  string // signup, running, finished, cancelled
	Round                   int
	RoundDeadline           time.Time
	Created, Updated        time.Time
}

// TournamentEntrant is a player entered in a tournament.
type TournamentEntrant struct {
	Player string
	// Name is the display name the player joined with, raw (the bot
	// escapes it where shown); AILevel is the computer's level for a
	// computer entrant, 0 for a person.
	Name           string
	AILevel        int
	Rating         float64
	Joined         time.Time
	Withdrawn      bool
	WithdrawnRound int
}

// TournamentPairing is one board of a round (Black "" for a bye).
type TournamentPairing struct {
	Round, Board int
	White, Black string
	GameID       int64
	Result       string // "" while pending
}

const tournamentCols = `id, guild, channel, creator, kind, variant, clock, format, rounds, rated, max_players,
	signup_deadline, round_length, status, round, round_deadline, created_at, updated_at`

func scanTournament(r scanner) (*Tournament, error) {
	var t Tournament
	var signup, length, deadline, created, updated int64
	var rated int
	if err := r.Scan(&t.ID, &t.Guild, &t.Channel, &t.Creator, &t.Kind, &t.Variant, &t.Clock, &t.Format, &t.Rounds, &rated, &t.MaxPlayers,
		&signup, &length, &t.Status, &t.Round, &deadline, &created, &updated); err != nil {
		return nil, err
	}
	t.Rated = rated != 0
	t.SignUpDeadline, t.RoundDeadline = fromNanos(signup), fromNanos(deadline)
	t.RoundLength = time.Duration(length)
	t.Created, t.Updated = fromNanos(created), fromNanos(updated)
	return &t, nil
}

// CreateTournament stores a new tournament open for sign-up (Status and
// Round of t are ignored).
func (s *Store) CreateTournament(ctx context.Context, t Tournament) (*Tournament, error) {
	now := s.now().UnixNano()
	var out *Tournament
	err := s.tx(ctx, func(tx *sql.Tx) error {
		var err error
		out, err = scanTournament(tx.QueryRowContext(ctx, `INSERT INTO tournaments(guild, channel, creator, kind, variant, clock, format, rounds, rated,
			max_players, signup_deadline, round_length, status, round, round_deadline, created_at, updated_at)
			VALUES(?,?,?,?,?,?,?,?,?,?,?,?,'signup',0,0,?,?) RETURNING `+tournamentCols,
			t.Guild, t.Channel, t.Creator, t.Kind, t.Variant, t.Clock, t.Format, t.Rounds, t.Rated,
			t.MaxPlayers, nanos(t.SignUpDeadline), int64(t.RoundLength), now, now))
		return err
	})
	if err != nil {
		return nil, fmt.Errorf("create tournament: %w", err)
	}
	return out, nil
}

// Tournament reads one tournament.
func (s *Store) Tournament(ctx context.Context, id int64) (*Tournament, error) {
	t, err := scanTournament(s.r.QueryRowContext(ctx, `SELECT `+tournamentCols+` FROM tournaments WHERE id=?`, id))
	if errors.Is(err, sql.ErrNoRows) {
		return nil, fmt.Errorf("tournament %d: %w", id, ErrNotFound)
	}
	if err != nil {
		return nil, fmt.Errorf("tournament %d: %w", id, err)
	}
	return t, nil
}

// TournamentState reads a tournament with its entrants and pairings as of
// one moment (one read transaction; REPEATABLE READ on PostgreSQL), so a
// round started meanwhile by another instance is either wholly in it or
// not at all.
func (s *Store) TournamentState(ctx context.Context, id int64) (*Tournament, []TournamentEntrant, []TournamentPairing, error) {
	var opts *sql.TxOptions
	if s.pg {
		opts = &sql.TxOptions{Isolation: sql.LevelRepeatableRead, ReadOnly: true}
	}
	tx, err := s.r.BeginTx(ctx, opts)
	if err != nil {
		return nil, nil, nil, fmt.Errorf("tournament %d: %w", id, err)
	}
	defer tx.Rollback()
	t, err := scanTournament(tx.QueryRowContext(ctx, `SELECT `+tournamentCols+` FROM tournaments WHERE id=?`, id))
	if errors.Is(err, sql.ErrNoRows) {
		return nil, nil, nil, fmt.Errorf("tournament %d: %w", id, ErrNotFound)
	}
	if err != nil {
		return nil, nil, nil, fmt.Errorf("tournament %d: %w", id, err)
	}
	es, err := entrants(ctx, tx, id)
	if err != nil {
		return nil, nil, nil, err
	}
	ps, err := pairings(ctx, tx, id)
	if err != nil {
		return nil, nil, nil, err
	}
	return t, es, ps, tx.Commit()
}

func (s *Store) tournaments(ctx context.Context, what, q string, args ...any) ([]*Tournament, error) {
	out, err := queryAll(ctx, s.r, scanTournament, `SELECT `+tournamentCols+` FROM tournaments WHERE `+q, args...)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", what, err)
	}
	return out, nil
}

// GuildTournaments are a server's tournaments in sign-up or running,
// oldest first.
func (s *Store) GuildTournaments(ctx context.Context, guild string) ([]*Tournament, error) {
	return s.tournaments(ctx, "tournaments of "+guild, `guild=? AND status IN ('signup','running') ORDER BY id`, guild)
}

// DueTournaments are the running tournaments whose round deadline has
// passed at now (their unfinished games are to be adjudicated), and those
// in sign-up whose sign-up deadline has.
func (s *Store) DueTournaments(ctx context.Context, now time.Time) ([]*Tournament, error) {
	n := now.UnixNano()
	return s.tournaments(ctx, "due tournaments",
		`(status='running' AND round_deadline > 0 AND round_deadline <= ?) OR (status='signup' AND signup_deadline > 0 AND signup_deadline <= ?) ORDER BY id`, n, n)
}

// lockTournament touches the tournament's row if it is in status, so the
// rest of the transaction runs with it locked (PostgreSQL) or alone (the
// SQLite writer); ErrTournamentStale when it is not in status.
func (s *Store) lockTournament(ctx context.Context, tx *sql.Tx, id int64, status string) error {
	res, err := tx.ExecContext(ctx, `UPDATE tournaments SET updated_at=? WHERE id=? AND status=?`, s.now().UnixNano(), id, status)
	if err != nil {
		return err
	}
	if n, err := res.RowsAffected(); err != nil || n == 0 {
		if err != nil {
			return err
		}
		return s.staleOrMissing(ctx, tx, id)
	}
	return nil
}

func (s *Store) staleOrMissing(ctx context.Context, tx *sql.Tx, id int64) error {
	var one int
	if err := tx.QueryRowContext(ctx, `SELECT 1 FROM tournaments WHERE id=?`, id).Scan(&one); errors.Is(err, sql.ErrNoRows) {
		return ErrNotFound
	} else if err != nil {
		return err
	}
	return ErrTournamentStale
}

// AddEntrant enters a player while the tournament is in sign-up and below
// its max_players: ErrAlreadyEntered, ErrTournamentFull, or
// ErrTournamentStale when sign-up is over.
func (s *Store) AddEntrant(ctx context.Context, id int64, e TournamentEntrant) error {
	err := s.tx(ctx, func(tx *sql.Tx) error {
		if err := s.lockTournament(ctx, tx, id, "signup"); err != nil {
			return err
		}
		var count, maxPlayers, seq int
		if err := tx.QueryRowContext(ctx, `SELECT COUNT(*), COALESCE(MAX(seq), 0), (SELECT max_players FROM tournaments WHERE id=?)
			FROM tournament_entrants WHERE tournament_id=?`, id, id).Scan(&count, &seq, &maxPlayers); err != nil {
			return err
		}
		var one int
		err := tx.QueryRowContext(ctx, `SELECT 1 FROM tournament_entrants WHERE tournament_id=? AND player=?`, id, e.Player).Scan(&one)
		if err == nil {
			return ErrAlreadyEntered
		}
		if !errors.Is(err, sql.ErrNoRows) {
			return err
		}
		if maxPlayers > 0 && count >= maxPlayers {
			return ErrTournamentFull
		}
		_, err = tx.ExecContext(ctx, `INSERT INTO tournament_entrants(tournament_id, player, seq, rating, joined_at, name, ai_level) VALUES(?,?,?,?,?,?,?)`,
			id, e.Player, seq+1, e.Rating, nanos(e.Joined), e.Name, e.AILevel)
		if isUnique(err) {
			return ErrAlreadyEntered
		}
		return err
	})
	if err != nil {
		return fmt.Errorf("enter %s in tournament %d: %w", e.Player, id, err)
	}
	return nil
}

// RemoveEntrant takes a player out during sign-up (ErrNotFound when not
// entered, ErrTournamentStale after sign-up).
func (s *Store) RemoveEntrant(ctx context.Context, id int64, player string) error {
	err := s.tx(ctx, func(tx *sql.Tx) error {
		if err := s.lockTournament(ctx, tx, id, "signup"); err != nil {
			return err
		}
		res, err := tx.ExecContext(ctx, `DELETE FROM tournament_entrants WHERE tournament_id=? AND player=?`, id, player)
		if err != nil {
			return err
		}
		if n, _ := res.RowsAffected(); n == 0 {
			return ErrNotFound
		}
		return nil
	})
	if err != nil {
		return fmt.Errorf("remove %s from tournament %d: %w", player, id, err)
	}
	return nil
}

// WithdrawEntrant marks a player withdrawn in a running tournament, at
// round, and records the results decided by the withdrawal (forfeits of
// pending boards) in the same transaction. ErrTournamentStale when the
// tournament is not running, is at another round, or the player had
// withdrawn already; ErrNotFound when not entered.
func (s *Store) WithdrawEntrant(ctx context.Context, id int64, player string, round int, decided []TournamentPairing) error {
	err := s.tx(ctx, func(tx *sql.Tx) error {
		res, err := tx.ExecContext(ctx, `UPDATE tournaments SET updated_at=? WHERE id=? AND status='running' AND round=?`, s.now().UnixNano(), id, round)
		if err != nil {
			return err
		}
		if n, _ := res.RowsAffected(); n == 0 {
			return s.staleOrMissing(ctx, tx, id)
		}
		res, err = tx.ExecContext(ctx, `UPDATE tournament_entrants SET withdrawn=1, withdrawn_round=? WHERE tournament_id=? AND player=? AND withdrawn=0`,
			round, id, player)
		if err != nil {
			return err
		}
		if n, _ := res.RowsAffected(); n == 0 {
			var w int
			if err := tx.QueryRowContext(ctx, `SELECT withdrawn FROM tournament_entrants WHERE tournament_id=? AND player=?`, id, player).Scan(&w); errors.Is(err, sql.ErrNoRows) {
				return ErrNotFound
			}
			return ErrTournamentStale
		}
		for _, p := range decided {
			if _, err := setPairingResult(ctx, tx, id, p.Round, p.Board, p.Result); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		return fmt.Errorf("withdraw %s from tournament %d: %w", player, id, err)
	}
	return nil
}

// Entrants are a tournament's players in sign-up order.
func (s *Store) Entrants(ctx context.Context, id int64) ([]TournamentEntrant, error) {
	return entrants(ctx, s.r, id)
}

func entrants(ctx context.Context, q querier, id int64) ([]TournamentEntrant, error) {
	out, err := queryAll(ctx, q, scanEntrant, `SELECT player, rating, joined_at, withdrawn, withdrawn_round, name, ai_level FROM tournament_entrants
		WHERE tournament_id=? ORDER BY seq`, id)
	if err != nil {
		return nil, fmt.Errorf("entrants of tournament %d: %w", id, err)
	}
	return out, nil
}

func scanEntrant(r scanner) (TournamentEntrant, error) {
	var e TournamentEntrant
	var joined int64
	var w int
	if err := r.Scan(&e.Player, &e.Rating, &joined, &w, &e.WithdrawnRound, &e.Name, &e.AILevel); err != nil {
		return TournamentEntrant{}, err
	}
	e.Joined, e.Withdrawn = fromNanos(joined), w != 0
	return e, nil
}

// SetTournamentStatus moves a tournament from one status to another
// (cancelling, say); ErrTournamentStale when it is no longer in from.
func (s *Store) SetTournamentStatus(ctx context.Context, id int64, from, to string) error {
	err := s.tx(ctx, func(tx *sql.Tx) error {
		res, err := tx.ExecContext(ctx, `UPDATE tournaments SET status=?, updated_at=? WHERE id=? AND status=?`, to, s.now().UnixNano(), id, from)
		if err != nil {
			return err
		}
		if n, _ := res.RowsAffected(); n == 0 {
			return s.staleOrMissing(ctx, tx, id)
		}
		return nil
	})
	if err != nil {
		return fmt.Errorf("tournament %d from %s to %s: %w", id, from, to, err)
	}
	return nil
}

// StartRound makes round the current one and stores its pairings, only if
// the tournament is still in status from (signup for round 1, running
// afterwards) at round−1: a compare-and-set on the round number, so of
// several instances pairing the same round exactly one succeeds and the
// others get ErrTournamentStale with nothing written. posts (the round's
// announcement) are queued in the outbox in the same transaction: the
// round is never paired without them, nor announced twice.
func (s *Store) StartRound(ctx context.Context, id int64, from string, round int, deadline time.Time, ps []TournamentPairing, posts ...Message) error {
	err := s.tx(ctx, func(tx *sql.Tx) error {
		res, err := tx.ExecContext(ctx, `UPDATE tournaments SET status='running', round=?, round_deadline=?, updated_at=?
			WHERE id=? AND status=? AND round=?`, round, nanos(deadline), s.now().UnixNano(), id, from, round-1)
		if err != nil {
			return err
		}
		if n, _ := res.RowsAffected(); n == 0 {
			return s.staleOrMissing(ctx, tx, id)
		}
		for _, p := range ps {
			if p.Round != round {
				return fmt.Errorf("board %d is of round %d, not %d", p.Board, p.Round, round)
			}
			if _, err := tx.ExecContext(ctx, `INSERT INTO tournament_pairings(tournament_id, round, board, white, black, game_id, result)
				VALUES(?,?,?,?,?,?,?)`, id, p.Round, p.Board, p.White, p.Black, p.GameID, p.Result); err != nil {
				return err
			}
		}
		return s.enqueueAll(ctx, tx, posts)
	})
	if err != nil {
		return fmt.Errorf("start round %d of tournament %d: %w", round, id, err)
	}
	return nil
}

// FinishTournament marks a running tournament at round finished
// (ErrTournamentStale otherwise), queuing posts (the final standings) in
// the same transaction.
func (s *Store) FinishTournament(ctx context.Context, id int64, round int, posts ...Message) error {
	err := s.tx(ctx, func(tx *sql.Tx) error {
		res, err := tx.ExecContext(ctx, `UPDATE tournaments SET status='finished', round_deadline=0, updated_at=? WHERE id=? AND status='running' AND round=?`,
			s.now().UnixNano(), id, round)
		if err != nil {
			return err
		}
		if n, _ := res.RowsAffected(); n == 0 {
			return s.staleOrMissing(ctx, tx, id)
		}
		return s.enqueueAll(ctx, tx, posts)
	})
	if err != nil {
		return fmt.Errorf("finish tournament %d: %w", id, err)
	}
	return nil
}

// Pairings are all boards of a tournament, by round then board.
func (s *Store) Pairings(ctx context.Context, id int64) ([]TournamentPairing, error) {
	return pairings(ctx, s.r, id)
}

func pairings(ctx context.Context, q querier, id int64) ([]TournamentPairing, error) {
	out, err := queryAll(ctx, q, scanPairing, `SELECT round, board, white, black, game_id, result FROM tournament_pairings
		WHERE tournament_id=? ORDER BY round, board`, id)
	if err != nil {
		return nil, fmt.Errorf("pairings of tournament %d: %w", id, err)
	}
	return out, nil
}

func scanPairing(r scanner) (TournamentPairing, error) {
	var p TournamentPairing
	err := r.Scan(&p.Round, &p.Board, &p.White, &p.Black, &p.GameID, &p.Result)
	return p, err
}

// PairingByGame finds the tournament board a game is played on
// (ErrNotFound for a game outside tournaments).
func (s *Store) PairingByGame(ctx context.Context, gameID int64) (int64, TournamentPairing, error) {
	var id int64
	var p TournamentPairing
	err := s.r.QueryRowContext(ctx, `SELECT tournament_id, round, board, white, black, game_id, result FROM tournament_pairings WHERE game_id=?`, gameID).
		Scan(&id, &p.Round, &p.Board, &p.White, &p.Black, &p.GameID, &p.Result)
	if errors.Is(err, sql.ErrNoRows) {
		return 0, p, fmt.Errorf("tournament board of game %d: %w", gameID, ErrNotFound)
	}
	if err != nil {
		return 0, p, fmt.Errorf("tournament board of game %d: %w", gameID, err)
	}
	return id, p, nil
}

// SetPairingGame claims a board for the game started on it: only once
// (ErrTournamentStale when a game was set already, so two instances do not
// both start it).
func (s *Store) SetPairingGame(ctx context.Context, id int64, round, board int, gameID int64) error {
	err := s.tx(ctx, func(tx *sql.Tx) error {
		res, err := tx.ExecContext(ctx, `UPDATE tournament_pairings SET game_id=? WHERE tournament_id=? AND round=? AND board=? AND game_id=0 AND result=''`,
			gameID, id, round, board)
		if err != nil {
			return err
		}
		if n, _ := res.RowsAffected(); n == 0 {
			return boardStaleOrMissing(ctx, tx, id, round, board)
		}
		return nil
	})
	if err != nil {
		return fmt.Errorf("game of tournament %d round %d board %d: %w", id, round, board, err)
	}
	return nil
}

// SetPairingResult records a board's result once: set tells whether this
// call recorded it; recording the same result again is a no-op (set
// false), a different one ErrTournamentStale.
func (s *Store) SetPairingResult(ctx context.Context, id int64, round, board int, result string) (set bool, err error) {
	err = s.tx(ctx, func(tx *sql.Tx) error {
		set, err = setPairingResult(ctx, tx, id, round, board, result)
		return err
	})
	if err != nil {
		return false, fmt.Errorf("result of tournament %d round %d board %d: %w", id, round, board, err)
	}
	return set, nil
}

func setPairingResult(ctx context.Context, tx *sql.Tx, id int64, round, board int, result string) (bool, error) {
	if result == "" {
		return false, errors.New("empty result")
	}
	res, err := tx.ExecContext(ctx, `UPDATE tournament_pairings SET result=? WHERE tournament_id=? AND round=? AND board=? AND result=''`,
		result, id, round, board)
	if err != nil {
		return false, err
	}
	if n, _ := res.RowsAffected(); n > 0 {
		return true, nil
	}
	var cur string
	err = tx.QueryRowContext(ctx, `SELECT result FROM tournament_pairings WHERE tournament_id=? AND round=? AND board=?`, id, round, board).Scan(&cur)
	switch {
	case errors.Is(err, sql.ErrNoRows):
		return false, ErrNotFound
	case err != nil:
		return false, err
	case cur == result:
		return false, nil
	}
	return false, ErrTournamentStale
}

func boardStaleOrMissing(ctx context.Context, tx *sql.Tx, id int64, round, board int) error {
	var one int
	err := tx.QueryRowContext(ctx, `SELECT 1 FROM tournament_pairings WHERE tournament_id=? AND round=? AND board=?`, id, round, board).Scan(&one)
	if errors.Is(err, sql.ErrNoRows) {
		return ErrNotFound
	}
	if err != nil {
		return err
	}
	return ErrTournamentStale
}

// enqueueAll queues ms in tx.
func (s *Store) enqueueAll(ctx context.Context, tx *sql.Tx, ms []Message) error {
	for _, m := range ms {
		if _, err := s.enqueue(ctx, tx, m); err != nil {
			return fmt.Errorf("queue message for %s: %w", m.Channel, err)
		}
	}
	return nil
}
