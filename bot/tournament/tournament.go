// Package tournament runs round-robin, Swiss and knockout tournaments as
// pure data: who is entered, who plays whom with which colour in each
// round, results, withdrawals, deadlines and standings. It does no I/O and
// knows no game rules; the bot stores a Tournament (store package), starts
// the games and feeds results back. docs/tournaments.md is the player- and
// organiser-facing description of the rules implemented here.
package tournament

import (
	"errors"
	"fmt"
	"slices"
	"time"
)

// Format is how players are paired.
type Format string

const (
	RoundRobin Format = "round-robin"
	// DoubleRoundRobin: everyone meets everyone twice, the second cycle
	// repeating the first with colours swapped (Berger tables).
	DoubleRoundRobin Format = "double-round-robin"
	Swiss            Format = "swiss"
	Knockout         Format = "knockout"
)

// Status is where a tournament is in its life.
type Status string

const (
	SignUp    Status = "signup"
	Running   Status = "running"
	Finished  Status = "finished"
	Cancelled Status = "cancelled"
)

// Errors callers branch on (errors.Is). A method returning one changed
// nothing.
var (
	ErrBadSettings      = errors.New("tournament: bad settings")
	ErrNotOrganiser     = errors.New("tournament: only the organiser or a member with Manage Server may do that")
	ErrNotSignUp        = errors.New("tournament: sign-up is closed")
	ErrSignUpDeadline   = errors.New("tournament: the sign-up deadline has passed")
	ErrAlreadyJoined    = errors.New("tournament: already entered")
	ErrNotEntered       = errors.New("tournament: not entered")
	ErrFull             = errors.New("tournament: the tournament is full")
	ErrTooFewPlayers    = errors.New("tournament: too few players to start")
	ErrNotRunning       = errors.New("tournament: the tournament is not running")
	ErrCancelled        = errors.New("tournament: the tournament was cancelled")
	ErrFinished         = errors.New("tournament: the tournament is over")
	ErrAlreadyWithdrawn = errors.New("tournament: already withdrawn")
	ErrRoundNotOver     = errors.New("tournament: the round still has games in progress")
	ErrStaleRound       = errors.New("tournament: that round was already paired")
	ErrNoSuchGame       = errors.New("tournament: no such game in the round")
	ErrAlreadyRecorded  = errors.New("tournament: the game already has a result")
	ErrBadResult        = errors.New("tournament: not a result for that game")
	ErrNoPairing        = errors.New("tournament: no pairing satisfies the absolute criteria")
)

// Result of one pairing. Forfeits are games not played over the board:
// they score like wins and losses but their colours do not count.
type Result uint8

const (
	Pending       Result = iota
	WhiteWins            // 1-0
	BlackWins            // 0-1
	Draw                 // ½-½
	WhiteForfeit         // +:- Black forfeited (did not play, withdrew, or never moved)
	BlackForfeit         // -:+ White forfeited
	DoubleForfeit        // -:- neither played
	Bye                  // the player in White had no opponent
)

var resultNames = [...]string{"", "1-0", "0-1", "1/2-1/2", "+:-", "-:+", "-:-", "bye"}

// String is the stored form ("" while pending).
func (r Result) String() string {
	if int(r) < len(resultNames) {
		return resultNames[r]
	}
	return fmt.Sprintf("Result(%d)", r)
}

// ParseResult reads String's form.
func ParseResult(s string) (Result, error) {
	for i, n := range resultNames {
		if n == s {
			return Result(i), nil
		}
	}
	return Pending, fmt.Errorf("%w: %q", ErrBadResult, s)
}

// Played tells a game decided over the board (its colours count).
func (r Result) Played() bool { return r == WhiteWins || r == BlackWins || r == Draw }

// Points are White's and Black's points (a bye's points depend on the
// format: see byePoints).
func (r Result) Points() (white, black float64) {
	switch r {
	case WhiteWins, WhiteForfeit:
		return 1, 0
	case BlackWins, BlackForfeit:
		return 0, 1
	case Draw:
		return 0.5, 0.5
	}
	return 0, 0
}

// Colour of a side.
type Colour int

const (
	White Colour = iota
	Black
)

// Pairing is one board of a round. Black is "" for a bye (and White "" too
// for an empty knockout slot, which has result DoubleForfeit).
type Pairing struct {
	Round, Board int // both from 1
	White, Black string
	Result       Result
	GameID       int64 // the bot's game, 0 until started (and for byes and forfeits)
}

// IsBye tells a pairing without an opponent.
func (p Pairing) IsBye() bool { return p.Black == "" }

// Entrant is a player in the tournament.
type Entrant struct {
	Player    string
	Rating    float64 // at sign-up; seeds knockouts and numbers players
	Joined    time.Time
	Withdrawn bool
	// WithdrawnRound is the round that was current when the player withdrew
	// (0: before round 1 was paired).
	WithdrawnRound int
}

// Settings are fixed at creation.
type Settings struct {
	Format Format
	// SwissRounds is the number of Swiss rounds (the other formats derive
	// theirs: TotalRounds).
	SwissRounds int
	MaxPlayers  int // 0: no limit below the format's own (MaxEntrants)
	// SignUpDeadline, when set, closes sign-up; RoundLength is how long a
	// round lasts from its start before unfinished games are adjudicated.
	SignUpDeadline time.Time
	RoundLength    time.Duration
	// FirstColour is pairing number 1's colour in a Swiss round 1 (White
	// unless a TRF file read back said otherwise: XXC black1).
	FirstColour Colour
}

// MaxEntrants bounds every tournament (pairing cost and image size).
const MaxEntrants = 128

// MaxSwissRounds is the most rounds a Swiss tournament can be set to.
const MaxSwissRounds = 20

// MinPlayers is the fewest entrants a format starts with.
func MinPlayers(f Format) int {
	switch f {
	case Knockout:
		return 2
	case RoundRobin, DoubleRoundRobin:
		return 3
	}
	return 4
}

// Validate checks settings.
func (s Settings) Validate() error {
	switch s.Format {
	case RoundRobin, DoubleRoundRobin, Knockout:
		if s.SwissRounds != 0 {
			return fmt.Errorf("%w: only a Swiss tournament takes a number of rounds", ErrBadSettings)
		}
	case Swiss:
		if s.SwissRounds < 1 || s.SwissRounds > MaxSwissRounds {
			return fmt.Errorf("%w: a Swiss tournament has 1 to %d rounds, not %d", ErrBadSettings, MaxSwissRounds, s.SwissRounds)
		}
	default:
		return fmt.Errorf("%w: unknown format %q", ErrBadSettings, s.Format)
	}
	if s.MaxPlayers != 0 {
		if err := CheckMaxPlayers(s.Format, s.MaxPlayers); err != nil {
			return err
		}
	}
	if s.RoundLength < time.Minute || s.RoundLength > 60*24*time.Hour {
		return fmt.Errorf("%w: a round lasts from a minute to 60 days, not %s", ErrBadSettings, s.RoundLength)
	}
	return nil
}

// CheckMaxPlayers checks a player limit the organiser gave: from the
// format's minimum to MaxEntrants. Settings keep 0 for "no limit given",
// so a caller reading the organiser's number checks it here first: an
// explicit 0 (or less) is refused, not taken as unlimited.
func CheckMaxPlayers(f Format, n int) error {
	if n < MinPlayers(f) || n > MaxEntrants {
		return fmt.Errorf("%w: at most %d players is outside %d..%d", ErrBadSettings, n, MinPlayers(f), MaxEntrants)
	}
	return nil
}

// Actor is who asks for an organiser's action.
type Actor struct {
	ID           string
	ManageServer bool // has the Manage Server permission in the guild
}

// Tournament is the whole state. Methods that return an error leave it
// unchanged.
type Tournament struct {
	Creator string
	Settings
	Status        Status
	Round         int // the current round; 0 before the start
	RoundDeadline time.Time
	Entrants      []Entrant   // in sign-up order
	Rounds        [][]Pairing // Rounds[r-1] is round r
}

// New is a tournament open for sign-up.
func New(creator string, s Settings) (*Tournament, error) {
	if creator == "" {
		return nil, fmt.Errorf("%w: no organiser", ErrBadSettings)
	}
	if err := s.Validate(); err != nil {
		return nil, err
	}
	return &Tournament{Creator: creator, Settings: s, Status: SignUp}, nil
}

func (t *Tournament) organiser(a Actor) bool { return a.ID == t.Creator || a.ManageServer }

// IsOrganiser says whether a may act as the organiser (the creator, or a
// member with Manage Server).
func (t *Tournament) IsOrganiser(a Actor) bool { return t.organiser(a) }

// closed is the error for an action needing sign-up or a running
// tournament when it is over.
func (t *Tournament) closed() error {
	switch t.Status {
	case Cancelled:
		return ErrCancelled
	case Finished:
		return ErrFinished
	case Running:
		return ErrNotSignUp
	}
	return ErrNotRunning
}

func (t *Tournament) entrant(player string) int {
	for i, e := range t.Entrants {
		if e.Player == player {
			return i
		}
	}
	return -1
}

// Entrant returns a player's entry.
func (t *Tournament) Entrant(player string) (Entrant, bool) {
	if i := t.entrant(player); i >= 0 {
		return t.Entrants[i], true
	}
	return Entrant{}, false
}

func (t *Tournament) maxPlayers() int {
	if t.MaxPlayers > 0 {
		return t.MaxPlayers
	}
	return MaxEntrants
}

// Join enters a player during sign-up.
func (t *Tournament) Join(player string, rating float64, now time.Time) error {
	if t.Status != SignUp {
		return t.closed()
	}
	if !t.SignUpDeadline.IsZero() && !now.Before(t.SignUpDeadline) {
		return ErrSignUpDeadline
	}
	if t.entrant(player) >= 0 {
		return ErrAlreadyJoined
	}
	if len(t.Entrants) >= t.maxPlayers() {
		return ErrFull
	}
	t.Entrants = append(t.Entrants, Entrant{Player: player, Rating: rating, Joined: now})
	return nil
}

// Leave takes a player out during sign-up (afterwards they Withdraw).
func (t *Tournament) Leave(player string) error {
	if t.Status != SignUp {
		return t.closed()
	}
	i := t.entrant(player)
	if i < 0 {
		return ErrNotEntered
	}
	t.Entrants = append(t.Entrants[:i:i], t.Entrants[i+1:]...)
	return nil
}

// Cancel ends the tournament without result (sign-up or running).
func (t *Tournament) Cancel(a Actor) error {
	if t.Status != SignUp && t.Status != Running {
		return t.closed()
	}
	if !t.organiser(a) {
		return ErrNotOrganiser
	}
	t.Status = Cancelled
	return nil
}

// TotalRounds is how many rounds the tournament has with n entrants.
func TotalRounds(f Format, swissRounds, n int) int {
	switch f {
	case RoundRobin, DoubleRoundRobin:
		c := n - 1
		if n%2 == 1 {
			c = n
		}
		if f == DoubleRoundRobin {
			return 2 * c
		}
		return c
	case Knockout:
		r := 0
		for 1<<r < n {
			r++
		}
		return r
	}
	return swissRounds
}

// TotalRounds of this tournament with its current entrants.
func (t *Tournament) TotalRounds() int {
	return TotalRounds(t.Format, t.SwissRounds, len(t.Entrants))
}

// Start closes sign-up and pairs round 1.
func (t *Tournament) Start(a Actor, now time.Time) ([]Pairing, error) {
	if t.Status != SignUp {
		return nil, t.closed()
	}
	if !t.organiser(a) {
		return nil, ErrNotOrganiser
	}
	n := len(t.Entrants)
	if n < MinPlayers(t.Format) {
		return nil, fmt.Errorf("%w: %d entered, %s needs %d", ErrTooFewPlayers, n, t.Format, MinPlayers(t.Format))
	}
	if t.Format == Swiss && t.SwissRounds >= n {
		return nil, fmt.Errorf("%w: %d rounds of Swiss need at least %d players, %d entered", ErrTooFewPlayers, t.SwissRounds, t.SwissRounds+1, n)
	}
	c := t.clone()
	c.Status = Running
	ps, err := c.pair(1)
	if err != nil {
		return nil, err
	}
	c.Rounds = append(c.Rounds, ps)
	c.Round = 1
	c.RoundDeadline = now.Add(c.RoundLength)
	*t = *c
	return slices.Clone(ps), nil // the caller's copy: changing it changes nothing here
}

// clone deep-copies what pairing and results change.
func (t *Tournament) clone() *Tournament {
	c := *t
	c.Entrants = append([]Entrant(nil), t.Entrants...)
	c.Rounds = nil
	for _, r := range t.Rounds {
		c.Rounds = append(c.Rounds, append([]Pairing(nil), r...))
	}
	return &c
}

// Seeds are the entrants by rating, highest first (sign-up order breaks
// ties): seed 1 is Seeds()[0]. Pairing numbers in every format are seeds.
func (t *Tournament) Seeds() []Entrant {
	out := append([]Entrant(nil), t.Entrants...)
	stableSort(out, func(a, b Entrant) bool { return a.Rating > b.Rating })
	return out
}

// Withdraw takes a player out of a running tournament: a pending game of
// the current round is forfeited (the returned pairings are the ones it
// decided, so the bot can end those games), and the player is not paired
// again; a round-robin or knockout scores later games as forfeits.
func (t *Tournament) Withdraw(player string) ([]Pairing, error) {
	if t.Status != Running {
		if t.Status == SignUp {
			return nil, ErrNotRunning
		}
		return nil, t.closed()
	}
	i := t.entrant(player)
	if i < 0 {
		return nil, ErrNotEntered
	}
	if t.Entrants[i].Withdrawn {
		return nil, ErrAlreadyWithdrawn
	}
	t.Entrants[i].Withdrawn = true
	t.Entrants[i].WithdrawnRound = t.Round
	var decided []Pairing
	cur := t.Rounds[t.Round-1]
	for b, p := range cur {
		if p.Result != Pending || (p.White != player && p.Black != player) {
			continue
		}
		cur[b].Result = t.forfeitResult(p)
		decided = append(decided, cur[b])
	}
	return decided, nil
}

func (t *Tournament) withdrawn(player string) bool {
	i := t.entrant(player)
	return i >= 0 && t.Entrants[i].Withdrawn
}

// forfeitResult decides a pairing involving withdrawn players.
func (t *Tournament) forfeitResult(p Pairing) Result {
	w, b := p.White == "" || t.withdrawn(p.White), p.Black == "" || t.withdrawn(p.Black)
	switch {
	case w && b:
		return DoubleForfeit
	case w:
		return BlackForfeit
	case b:
		return WhiteForfeit
	}
	return p.Result
}

// Record sets a game's result. The result must be a decided one; byes
// and forfeits of withdrawn players are set by the tournament itself.
func (t *Tournament) Record(round, board int, r Result) error {
	if t.Status != Running {
		return t.closed()
	}
	if round < 1 || round > len(t.Rounds) || board < 1 || board > len(t.Rounds[round-1]) {
		return fmt.Errorf("%w: round %d board %d", ErrNoSuchGame, round, board)
	}
	p := &t.Rounds[round-1][board-1]
	if p.IsBye() {
		return fmt.Errorf("%w: round %d board %d is a bye", ErrNoSuchGame, round, board)
	}
	if p.Result != Pending {
		return fmt.Errorf("%w: round %d board %d is %s", ErrAlreadyRecorded, round, board, p.Result)
	}
	if r == Pending || r == Bye {
		return fmt.Errorf("%w: %s", ErrBadResult, r)
	}
	p.Result = r
	return nil
}

// RoundOver tells whether every game of the current round has a result.
func (t *Tournament) RoundOver() bool {
	if t.Round == 0 {
		return false
	}
	for _, p := range t.Rounds[t.Round-1] {
		if p.Result == Pending {
			return false
		}
	}
	return true
}

// DeadlinePassed tells whether the current round's deadline is over.
func (t *Tournament) DeadlinePassed(now time.Time) bool {
	return t.Status == Running && !t.RoundDeadline.IsZero() && !now.Before(t.RoundDeadline)
}

// Adjudicate is the result of a game still unfinished at the round
// deadline: the side to move loses, as on a flag fall. If that side has not
// made a single move in the game, it is a forfeit (not a game: colours do
// not count). If the side not to move could not win by any sequence of
// legal moves (the game's own rule for a flag fall, which the caller
// knows), the game is drawn.
func Adjudicate(toMove Colour, toMoveHasMoved, opponentCanWin bool) Result {
	switch {
	case !toMoveHasMoved && toMove == White:
		return BlackForfeit
	case !toMoveHasMoved:
		return WhiteForfeit
	case !opponentCanWin:
		return Draw
	case toMove == White:
		return BlackWins
	}
	return WhiteWins
}

// NextRound pairs the round after round `after`, once every game of it has
// a result; when that was the last round (or a Swiss round cannot be
// paired at all: EndedEarly) it finishes the tournament and returns no
// pairings. Calling it again for the same round fails with
// ErrStaleRound and changes nothing, so a retried or doubled call cannot
// pair twice (the store's compare-and-set on the round number does the
// same between instances).
func (t *Tournament) NextRound(after int, now time.Time) ([]Pairing, error) {
	if t.Status != Running {
		return nil, t.closed()
	}
	if after != t.Round {
		return nil, fmt.Errorf("%w: round %d is current, not %d", ErrStaleRound, t.Round, after)
	}
	if !t.RoundOver() {
		return nil, ErrRoundNotOver
	}
	if t.complete() {
		t.Status = Finished
		t.RoundDeadline = time.Time{}
		return nil, nil
	}
	c := t.clone()
	ps, err := c.pair(t.Round + 1)
	if errors.Is(err, ErrNoPairing) {
		// Nearly everyone has met: the Swiss ends after this round
		// (EndedEarly tells).
		t.Status = Finished
		t.RoundDeadline = time.Time{}
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	c.Rounds = append(c.Rounds, ps)
	c.Round++
	c.RoundDeadline = now.Add(c.RoundLength)
	*t = *c
	return slices.Clone(ps), nil // the caller's copy: changing it changes nothing here
}

// PairNext pairs the round after the last one in Rounds without changing
// t, leaving out the players in absent for that round (as a pairing
// program leaves out a player marked absent): the check of a round
// against another pairing program (the trf package's replay).
func (t *Tournament) PairNext(absent []string) ([]Pairing, error) {
	c := t.clone()
	for i, e := range c.Entrants {
		if slices.Contains(absent, e.Player) {
			c.Entrants[i].Withdrawn = true
		}
	}
	return c.pair(len(c.Rounds) + 1)
}

// EndedEarly tells a finished Swiss that stopped before its last round
// because no pairing satisfied the absolute criteria.
func (t *Tournament) EndedEarly() bool {
	return t.Status == Finished && t.Format == Swiss && t.Round < t.SwissRounds && len(t.active()) >= 2
}

// complete tells whether the last round has been played.
func (t *Tournament) complete() bool {
	if t.Round >= t.TotalRounds() {
		return true
	}
	switch t.Format {
	case Swiss:
		return len(t.active()) < 2
	case Knockout:
		return len(t.Rounds[t.Round-1]) <= 1
	}
	return false
}

// active are the seeds not withdrawn.
func (t *Tournament) active() []Entrant {
	var out []Entrant
	for _, e := range t.Seeds() {
		if !e.Withdrawn {
			out = append(out, e)
		}
	}
	return out
}

// pair makes round r's pairings (byes and forfeits of withdrawn players
// already decided).
func (t *Tournament) pair(r int) ([]Pairing, error) {
	var ps []Pairing
	var err error
	switch t.Format {
	case RoundRobin, DoubleRoundRobin:
		ps = t.pairRoundRobin(r)
	case Knockout:
		ps = t.pairKnockout(r)
	case Swiss:
		ps, err = t.pairSwiss(r)
	}
	if err != nil {
		return nil, err
	}
	for i := range ps {
		ps[i].Round, ps[i].Board = r, i+1
		if ps[i].Result != Pending {
			continue
		}
		if ps[i].IsBye() {
			ps[i].Result = Bye
			if ps[i].White == "" || t.withdrawn(ps[i].White) {
				ps[i].Result = DoubleForfeit
			}
			continue
		}
		ps[i].Result = t.forfeitResult(ps[i])
	}
	return ps, nil
}

// byePoints is what a bye scores: a full point in Swiss (a pairing-
// allocated bye), nothing in a round-robin (everyone rests once) and a
// full point in a knockout (the player goes through).
func (t *Tournament) byePoints() float64 {
	if t.Format == RoundRobin || t.Format == DoubleRoundRobin {
		return 0
	}
	return 1
}

// stableSort sorts s by less, keeping the order of equal elements.
func stableSort[T any](s []T, less func(a, b T) bool) {
	slices.SortStableFunc(s, func(a, b T) int {
		switch {
		case less(a, b):
			return -1
		case less(b, a):
			return 1
		}
		return 0
	})
}
