// Package director runs tournaments against the store: each operation
// loads a tournament, applies the pure state machine of bot/tournament and
// writes the change with the store's compare-and-set, so two instances (or
// a retried command) cannot pair a round twice or count a result twice.
// The Discord commands and the scheduler call it; it knows nothing of
// Discord or of game rules (the caller starts games and judges
// adjudications).
package director

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/tankbot/tankbot/bot/tournament"
	"github.com/tankbot/tankbot/store"
)

// Store is the tournaments' records as the director reads and writes
// them (*store.Store has it).
type Store interface {
	AddEntrant(ctx context.Context, id int64, e store.TournamentEntrant) error
	CreateTournament(ctx context.Context, t store.Tournament) (*store.Tournament, error)
	DueTournaments(ctx context.Context, now time.Time) ([]*store.Tournament, error)
	FinishTournament(ctx context.Context, id int64, round int, posts ...store.Message) error
	PairingByGame(ctx context.Context, gameID int64) (int64, store.TournamentPairing, error)
	RemoveEntrant(ctx context.Context, id int64, player string) error
	SetPairingGame(ctx context.Context, id int64, round, board int, gameID int64) error
	SetPairingResult(ctx context.Context, id int64, round, board int, result string) (set bool, err error)
	SetTournamentStatus(ctx context.Context, id int64, from, to string) error
	StartRound(ctx context.Context, id int64, from string, round int, deadline time.Time, ps []store.TournamentPairing, posts ...store.Message) error
	TournamentState(ctx context.Context, id int64) (*store.Tournament, []store.TournamentEntrant, []store.TournamentPairing, error)
	WithdrawEntrant(ctx context.Context, id int64, player string, round int, decided []store.TournamentPairing) error
}

// Director runs tournaments stored in Store; Now is the injected clock.
type Director struct {
	Store Store
	Now   func() time.Time
	// Posts, when set, words what an advance did for the players (the
	// next round paired, or the tournament finished: finished true) as
	// outbox messages. They are queued in the transaction that advances,
	// so a refused post is retried rather than lost, and of instances
	// racing to advance only the one that did announces.
	Posts func(ev *Event, paired []tournament.Pairing, finished bool) ([]store.Message, error)
	// Adjudicated, when set, ends the games Tick adjudicated (their final
	// boards queued) before Tick pairs the next round or finishes the
	// tournament, so the players see each game's end before the next
	// round's announcement or the final standings.
	Adjudicated func(ctx context.Context, id int64, decided []tournament.Pairing)
}

// Event is a loaded tournament: the stored row and the state machine.
type Event struct {
	Row *store.Tournament
	T   *tournament.Tournament
	// entrants are the stored entries by player (names, computer levels).
	entrants map[string]store.TournamentEntrant
}

// Name is a player's display name as stored with their entry, raw (the
// caller escapes it where shown); the player's id when none was stored.
func (e *Event) Name(player string) string {
	if n := e.entrants[player].Name; n != "" {
		return n
	}
	return player
}

// AILevel is the computer's level when player is a computer entrant, 0
// for a person.
func (e *Event) AILevel(player string) int { return e.entrants[player].AILevel }

// Create stores a new tournament open for sign-up. row carries where and
// what is played (Guild, Channel, Creator, Kind, Variant, Clock, Rated);
// s the format and limits, validated here.
func (d *Director) Create(ctx context.Context, row store.Tournament, s tournament.Settings) (*Event, error) {
	if row.Guild == "" || row.Kind == "" {
		return nil, fmt.Errorf("%w: a tournament needs a server and a game", tournament.ErrBadSettings)
	}
	if !s.SignUpDeadline.IsZero() && !s.SignUpDeadline.After(d.Now()) {
		return nil, fmt.Errorf("%w: the sign-up deadline %s has passed", tournament.ErrBadSettings, s.SignUpDeadline.Format(time.RFC3339))
	}
	t, err := tournament.New(row.Creator, s)
	if err != nil {
		return nil, err
	}
	row.Format, row.Rounds, row.MaxPlayers = string(s.Format), s.SwissRounds, s.MaxPlayers
	row.SignUpDeadline, row.RoundLength = s.SignUpDeadline, s.RoundLength
	saved, err := d.Store.CreateTournament(ctx, row)
	if err != nil {
		return nil, err
	}
	return &Event{Row: saved, T: t}, nil
}

// Load reads a tournament and rebuilds its state.
func (d *Director) Load(ctx context.Context, id int64) (*Event, error) {
	row, es, ps, err := d.Store.TournamentState(ctx, id)
	if err != nil {
		return nil, err
	}
	t := &tournament.Tournament{
		Creator: row.Creator,
		Settings: tournament.Settings{Format: tournament.Format(row.Format), SwissRounds: row.Rounds, MaxPlayers: row.MaxPlayers,
			SignUpDeadline: row.SignUpDeadline, RoundLength: row.RoundLength},
		Status: tournament.Status(row.Status), Round: row.Round, RoundDeadline: row.RoundDeadline,
	}
	info := make(map[string]store.TournamentEntrant, len(es))
	for _, e := range es {
		info[e.Player] = e
		t.Entrants = append(t.Entrants, tournament.Entrant{Player: e.Player, Rating: e.Rating, Joined: e.Joined,
			Withdrawn: e.Withdrawn, WithdrawnRound: e.WithdrawnRound})
	}
	for _, p := range ps {
		for len(t.Rounds) < p.Round {
			t.Rounds = append(t.Rounds, nil)
		}
		r, err := tournament.ParseResult(p.Result)
		if err != nil {
			return nil, fmt.Errorf("tournament %d round %d board %d: %w", id, p.Round, p.Board, err)
		}
		t.Rounds[p.Round-1] = append(t.Rounds[p.Round-1], tournament.Pairing{Round: p.Round, Board: p.Board,
			White: p.White, Black: p.Black, Result: r, GameID: p.GameID})
	}
	if len(t.Rounds) != t.Round {
		return nil, fmt.Errorf("tournament %d: %d rounds of pairings at round %d", id, len(t.Rounds), t.Round)
	}
	return &Event{Row: row, T: t, entrants: info}, nil
}

func rows(ps []tournament.Pairing) []store.TournamentPairing {
	out := make([]store.TournamentPairing, len(ps))
	for i, p := range ps {
		out[i] = store.TournamentPairing{Round: p.Round, Board: p.Board, White: p.White, Black: p.Black, GameID: p.GameID, Result: p.Result.String()}
	}
	return out
}

// change runs op on a freshly loaded tournament. op applies the state
// machine and writes with a compare-and-set; when another instance changed
// the tournament in between (store.ErrTournamentStale), it runs again on
// the new state, where the state machine gives the right answer (joined
// already, started already, ...). Three tries, then the store's error.
func (d *Director) change(ctx context.Context, id int64, op func(ev *Event) error) error {
	for try := 1; ; try++ {
		ev, err := d.Load(ctx, id)
		if err != nil {
			return err
		}
		err = op(ev)
		if !errors.Is(err, store.ErrTournamentStale) || try == 3 {
			return err
		}
	}
}

// Join enters a player (rating seeds them).
func (d *Director) Join(ctx context.Context, id int64, player string, rating float64) error {
	return d.JoinAs(ctx, id, store.TournamentEntrant{Player: player, Rating: rating})
}

// JoinAs enters e: its Player, Rating (the seed), Name (stored raw, for
// the standings) and AILevel (a computer entrant). Joined is set here.
func (d *Director) JoinAs(ctx context.Context, id int64, e store.TournamentEntrant) error {
	return d.change(ctx, id, func(ev *Event) error {
		now := d.Now()
		if err := ev.T.Join(e.Player, e.Rating, now); err != nil {
			return err
		}
		e.Joined = now
		err := d.Store.AddEntrant(ctx, id, e)
		switch {
		case errors.Is(err, store.ErrAlreadyEntered):
			return tournament.ErrAlreadyJoined
		case errors.Is(err, store.ErrTournamentFull):
			return tournament.ErrFull
		}
		return err
	})
}

// Leave takes a player out during sign-up.
func (d *Director) Leave(ctx context.Context, id int64, player string) error {
	return d.change(ctx, id, func(ev *Event) error {
		if err := ev.T.Leave(player); err != nil {
			return err
		}
		err := d.Store.RemoveEntrant(ctx, id, player)
		if errors.Is(err, store.ErrNotFound) {
			return tournament.ErrNotEntered
		}
		return err
	})
}

// Start closes sign-up and pairs round 1 (the organiser only).
func (d *Director) Start(ctx context.Context, id int64, a tournament.Actor) (ps []tournament.Pairing, err error) {
	err = d.change(ctx, id, func(ev *Event) error {
		if ps, err = ev.T.Start(a, d.Now()); err != nil {
			return err
		}
		return d.Store.StartRound(ctx, id, string(tournament.SignUp), 1, ev.T.RoundDeadline, rows(ps))
	})
	if err != nil {
		return nil, err
	}
	return ps, nil
}

// Cancel ends the tournament without result (the organiser only).
func (d *Director) Cancel(ctx context.Context, id int64, a tournament.Actor) error {
	return d.change(ctx, id, func(ev *Event) error {
		from := string(ev.T.Status)
		if err := ev.T.Cancel(a); err != nil {
			return err
		}
		return d.Store.SetTournamentStatus(ctx, id, from, string(tournament.Cancelled))
	})
}

// Withdraw takes a player out of a running tournament; the returned
// pairings are the games it forfeited (the caller ends those games).
func (d *Director) Withdraw(ctx context.Context, id int64, player string) (decided []tournament.Pairing, err error) {
	err = d.change(ctx, id, func(ev *Event) error {
		if decided, err = ev.T.Withdraw(player); err != nil {
			return err
		}
		return d.Store.WithdrawEntrant(ctx, id, player, ev.T.Round, rows(decided))
	})
	if err != nil {
		return nil, err
	}
	return decided, nil
}

// SetGame claims a board for the game the caller started on it
// (tournament.ErrStaleRound when another instance claimed it first: that
// instance's game stands, the caller should end its own).
func (d *Director) SetGame(ctx context.Context, id int64, round, board int, gameID int64) error {
	err := d.Store.SetPairingGame(ctx, id, round, board, gameID)
	if errors.Is(err, store.ErrTournamentStale) {
		return fmt.Errorf("%w: board %d of round %d has its game", tournament.ErrStaleRound, board, round)
	}
	return err
}

// Record sets a board's result. Recording the same result twice is a
// no-op (a retried or doubled event); another result is ErrAlreadyRecorded.
func (d *Director) Record(ctx context.Context, id int64, round, board int, r tournament.Result) error {
	_, err := d.record(ctx, id, round, board, r)
	return err
}

// record is Record telling whether this call set the result (false when
// it was already there).
func (d *Director) record(ctx context.Context, id int64, round, board int, r tournament.Result) (set bool, err error) {
	err = d.change(ctx, id, func(ev *Event) error {
		set = false
		// A board already decided answers the same whatever the
		// tournament's state: a game's end reported after the
		// tournament finished (an adjudicated game's final board) is
		// the same result again, not an error.
		if round >= 1 && round <= len(ev.T.Rounds) && board >= 1 && board <= len(ev.T.Rounds[round-1]) {
			if had := ev.T.Rounds[round-1][board-1].Result; had != tournament.Pending && !ev.T.Rounds[round-1][board-1].IsBye() {
				if had == r {
					return nil
				}
				return fmt.Errorf("%w: round %d board %d is %s", tournament.ErrAlreadyRecorded, round, board, had)
			}
		}
		if err := ev.T.Record(round, board, r); err != nil {
			return err
		}
		var err error
		set, err = d.Store.SetPairingResult(ctx, id, round, board, r.String())
		return err
	})
	return set && err == nil, err
}

// RecordGame records the result of a finished game if it belongs to a
// tournament; it returns the tournament's id (0 and no error for a game
// outside tournaments).
func (d *Director) RecordGame(ctx context.Context, gameID int64, r tournament.Result) (int64, error) {
	id, p, err := d.Store.PairingByGame(ctx, gameID)
	if errors.Is(err, store.ErrNotFound) {
		return 0, nil
	}
	if err != nil {
		return 0, err
	}
	return id, d.Record(ctx, id, p.Round, p.Board, r)
}

// Adjudicate decides, once the round's deadline has passed, every game of
// the current round still without a result: judge gives each one's result
// (by tournament.Adjudicate from the game's position). Before the deadline
// it does nothing. It returns the boards this call decided (not those
// another instance, or the game's own end, decided meanwhile).
func (d *Director) Adjudicate(ctx context.Context, id int64, judge func(tournament.Pairing) (tournament.Result, error)) ([]tournament.Pairing, error) {
	ev, err := d.Load(ctx, id)
	if err != nil {
		return nil, err
	}
	if !ev.T.DeadlinePassed(d.Now()) {
		return nil, nil
	}
	var out []tournament.Pairing
	for _, p := range ev.T.Rounds[ev.T.Round-1] {
		if p.Result != tournament.Pending {
			continue
		}
		r, err := judge(p)
		if err != nil {
			return out, fmt.Errorf("adjudicate round %d board %d: %w", p.Round, p.Board, err)
		}
		set, err := d.record(ctx, id, p.Round, p.Board, r)
		if errors.Is(err, tournament.ErrAlreadyRecorded) {
			continue // the game ended, or another instance judged it, meanwhile
		}
		if err != nil {
			return out, err
		}
		if set {
			p.Result = r
			out = append(out, p)
		}
	}
	return out, nil
}

// Advance pairs the round after round `after` once that one is over, or
// finishes the tournament after its last round (finished true). Of several
// callers for the same round exactly one succeeds; the others get
// tournament.ErrStaleRound (or ErrFinished) and nothing changes.
// tournament.ErrRoundNotOver while games are still running.
func (d *Director) Advance(ctx context.Context, id int64, after int) (ps []tournament.Pairing, finished bool, err error) {
	ev, err := d.Load(ctx, id)
	if err != nil {
		return nil, false, err
	}
	round := after
	ps, err = ev.T.NextRound(round, d.Now())
	if err != nil {
		return nil, false, err
	}
	fin := ev.T.Status == tournament.Finished
	var posts []store.Message
	if d.Posts != nil {
		if posts, err = d.Posts(ev, ps, fin); err != nil {
			return nil, false, fmt.Errorf("announce round %d: %w", round+1, err)
		}
	}
	if fin {
		err = d.Store.FinishTournament(ctx, id, round, posts...)
	} else {
		err = d.Store.StartRound(ctx, id, string(tournament.Running), round+1, ev.T.RoundDeadline, rows(ps), posts...)
	}
	if errors.Is(err, store.ErrTournamentStale) {
		return nil, false, fmt.Errorf("%w: round %d was moved on by another instance", tournament.ErrStaleRound, round)
	}
	if err != nil {
		return nil, false, err
	}
	return ps, ev.T.Status == tournament.Finished, nil
}

// CloseSignUp acts on a passed sign-up deadline: the tournament starts if
// enough players entered (round 1's pairings returned, status Running), else
// it is cancelled (status Cancelled). Before the deadline, or when the
// tournament has left sign-up (another instance got there first), it does
// nothing and returns no status.
func (d *Director) CloseSignUp(ctx context.Context, id int64) (ps []tournament.Pairing, now tournament.Status, err error) {
	ev, err := d.Load(ctx, id)
	if err != nil {
		return nil, "", err
	}
	t := ev.T
	if t.Status != tournament.SignUp || t.SignUpDeadline.IsZero() || d.Now().Before(t.SignUpDeadline) {
		return nil, "", nil
	}
	ps, err = d.Start(ctx, id, tournament.Actor{ID: t.Creator})
	switch {
	case err == nil:
		return ps, tournament.Running, nil
	case errors.Is(err, tournament.ErrNotSignUp), errors.Is(err, tournament.ErrCancelled):
		return nil, "", nil
	case !errors.Is(err, tournament.ErrTooFewPlayers):
		return nil, "", err
	}
	// Only from sign-up: never cancel a tournament another instance started.
	err = d.Store.SetTournamentStatus(ctx, id, string(tournament.SignUp), string(tournament.Cancelled))
	if errors.Is(err, store.ErrTournamentStale) {
		return nil, "", nil
	}
	if err != nil {
		return nil, "", err
	}
	return nil, tournament.Cancelled, nil
}

// Update is what an event did to one tournament, for the bot to announce:
// the round it paired (games to start, players to ping), the boards it
// adjudicated (games to end) and whether the tournament finished or was
// cancelled.
type Update struct {
	ID     int64
	Paired []tournament.Pairing
	// Advanced: Paired was paired by an advance, whose announcement
	// (Director.Posts) is queued already; else by the sign-up deadline.
	Advanced    bool
	Adjudicated []tournament.Pairing
	Finished    bool
	Cancelled   bool
}

// Judge decides a game unfinished at its round's deadline, normally with
// tournament.Adjudicate from the game's position (who is to move, whether
// they ever moved, whether the opponent could still win).
type Judge func(id int64, p tournament.Pairing) (tournament.Result, error)

// advance pairs the next round if the current one is over; another
// instance having done it is not an error (it announces it). A round
// paired with nothing to play (only byes and forfeits, after
// withdrawals) is over at once: the one after it is paired too.
func (d *Director) advance(ctx context.Context, id int64, u *Update) error {
	for {
		ev, err := d.Load(ctx, id)
		if err != nil {
			return err
		}
		if ev.T.Status != tournament.Running || !ev.T.RoundOver() {
			return nil
		}
		ps, fin, err := d.Advance(ctx, id, ev.T.Round)
		if errors.Is(err, tournament.ErrStaleRound) {
			return nil
		}
		if err != nil {
			return err
		}
		u.Paired, u.Finished, u.Advanced = ps, fin, true
		if fin {
			return nil
		}
	}
}

// AdvanceIfOver pairs the next round (or finishes the tournament) when
// the current round has no game left without a result: after a
// withdrawal forfeited the last one, say. Nothing to do gives an empty
// Update.
func (d *Director) AdvanceIfOver(ctx context.Context, id int64) (Update, error) {
	u := Update{ID: id}
	return u, d.advance(ctx, id, &u)
}

// GameOver records a finished game's result and, if it was the last of its
// round, pairs the next round (or finishes the tournament). A game outside
// tournaments gives a nil Update.
func (d *Director) GameOver(ctx context.Context, gameID int64, r tournament.Result) (*Update, error) {
	id, err := d.RecordGame(ctx, gameID, r)
	if err != nil || id == 0 {
		return nil, err
	}
	u := &Update{ID: id}
	return u, d.advance(ctx, id, u)
}

// Tick handles the tournaments whose deadline has passed (the scheduler
// calls it): a passed sign-up deadline starts or cancels the tournament; a
// passed round deadline adjudicates the unfinished games with judge and
// pairs the next round. Updates are returned for the tournaments where
// something happened, also when a later one failed.
func (d *Director) Tick(ctx context.Context, judge Judge) ([]Update, error) {
	due, err := d.Store.DueTournaments(ctx, d.Now())
	if err != nil {
		return nil, err
	}
	var out []Update
	var errs []error
	for _, row := range due {
		u := Update{ID: row.ID}
		var err error
		if row.Status == string(tournament.SignUp) {
			var now tournament.Status
			u.Paired, now, err = d.CloseSignUp(ctx, row.ID)
			u.Cancelled = now == tournament.Cancelled
		} else {
			u.Adjudicated, err = d.Adjudicate(ctx, row.ID, func(p tournament.Pairing) (tournament.Result, error) { return judge(row.ID, p) })
			if len(u.Adjudicated) > 0 && d.Adjudicated != nil {
				d.Adjudicated(ctx, row.ID, u.Adjudicated)
			}
			if err == nil {
				err = d.advance(ctx, row.ID, &u)
			}
		}
		if err != nil {
			errs = append(errs, fmt.Errorf("tournament %d: %w", row.ID, err))
		}
		if u.Paired != nil || u.Adjudicated != nil || u.Finished || u.Cancelled {
			out = append(out, u)
		}
	}
	return out, errors.Join(errs...)
}
