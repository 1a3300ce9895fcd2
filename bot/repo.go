package bot

import (
	"context"
	"errors"
	"time"

	"github.com/tankbot/tankbot/store/clock"
)

// repo is what the handlers need from persistence. store.go adapts
// *store.Store to it; keeping the handlers on this narrow seam lets the
// store evolve without touching them, and lets the records carry the
// names and display fields the handlers want.
type repo interface {
	settings(ctx context.Context, userID string) (userSettings, error)
	saveSettings(ctx context.Context, userID string, s userSettings) error

	createChallenge(ctx context.Context, c *challengeRec) (int64, error)
	challenge(ctx context.Context, id int64) (*challengeRec, error)
	// setChallengeStatus moves a pending challenge to status; false when it
	// was no longer pending (someone else answered first).
	setChallengeStatus(ctx context.Context, id int64, status string) (bool, error)
	pendingChallenges(ctx context.Context, userID string) ([]*challengeRec, error)
	// acceptChallenge marks a pending challenge accepted and creates its
	// game in one transaction: errTaken when someone answered first,
	// errActiveGame when these players already play here.
	acceptChallenge(ctx context.Context, id int64, g *gameRec) (*gameRec, error)

	game(ctx context.Context, id int64) (*gameRec, error)
	// saveGame writes g. Without a move it is a compare-and-set on the
	// revision: the stored one must still be g.Rev-1 (the caller
	// incremented it). With a move, the move joins the log at ply g.Ply
	// if the stored ply is still g.Ply-1. False means someone else saved
	// first.
	saveGame(ctx context.Context, g *gameRec, move *moveRec) (bool, error)
	// takeBack saves g (at ply g.Ply, one less than stored) and drops the
	// last move of the log.
	takeBack(ctx context.Context, g *gameRec) (bool, error)
	activeGames(ctx context.Context, guildID string) ([]*gameRec, error)
	// channelGames are the active games played in a channel or thread.
	channelGames(ctx context.Context, channelID string) ([]*gameRec, error)
	moveLog(ctx context.Context, id int64) ([]string, error)
	// lastGame is the user's most recent game in a channel, finished or not.
	lastGame(ctx context.Context, userID, channelID string) (*gameRec, error)

	// setBoardMessage records the message showing a game's board.
	setBoardMessage(ctx context.Context, id int64, messageID string) error

	schedule(ctx context.Context, e event) error
	cancelEvents(ctx context.Context, ref int64, kinds ...string) error
	// claimDue leases the events due at now; each must be completed once
	// handled, or it comes back when the lease runs out.
	claimDue(ctx context.Context, now time.Time) ([]event, error)
	complete(ctx context.Context, id int64) error
}

// moveRec is a move as it joins the log.
type moveRec struct {
	Notation string
	Side     int
	Spent    time.Duration
}

var (
	errNotFound   = errors.New("not found")
	errTaken      = errors.New("challenge already answered")
	errActiveGame = errors.New("these players already have an active game here")
	errDuplicate  = errors.New("a challenge between these players is pending")
)

type userSettings struct {
	Locale string
	Flip   bool
}

// Challenge statuses.
const (
	chPending   = "pending"
	chAccepted  = "accepted"
	chDeclined  = "declined"
	chCancelled = "cancelled"
	chExpired   = "expired"
)

type challengeRec struct {
	ID         int64
	Challenger User
	Opponent   User // zero ID: open challenge
	Game       string
	Variant    string // named variant, or "" with Start set
	Start      string // encoded start position
	Clock      string // preset
	Color      string // white, black, random (challenger's)
	Thread     bool
	GuildID    string
	ChannelID  string
	Status     string
	Expires    time.Time
	Rematch    int64
}

// Game statuses.
const (
	gmActive   = "active"
	gmFinished = "finished"
)

type gameRec struct {
	ID         int64
	Rev        int
	Game       string
	Variant    string
	Start      string
	Pos        string
	Ply        int
	Turn       int    // side to move (0 white, 1 black), from the position
	Last       string // last move in notation
	White      User
	Black      User
	GuildID    string
	ChannelID  string      // where the game is played (thread or channel)
	Parent     string      // the channel the game's thread belongs to; "" when not in a thread
	Clock      string      // clock.Settings.String()
	ClockState clock.State // ToMove follows Turn
	Status     string
	Result     string
	Reason     string
	DrawOffer  int // 0 none, 1 white offers, 2 black offers
	Takeback   int // 0 none, 1 white asks, 2 black asks
	Moves      [2]int
	MessageID  string // the message showing the board, when known
}

func (g *gameRec) player(id string) (side int, ok bool) {
	switch id {
	case g.White.ID:
		return 0, true
	case g.Black.ID:
		return 1, true
	}
	return 0, false
}

func (g *gameRec) user(side int) User {
	if side == 1 {
		return g.Black
	}
	return g.White
}

// Event kinds.
const (
	evFlag   = "flag"
	evRemind = "remind"
	evExpire = "expire"
	// evAnnounce re-posts a flag-fall whose first announcement failed.
	evAnnounce = "announce"
)

type event struct {
	ID   int64 // set when claimed
	Kind string
	Ref  int64 // game or challenge id
	Ply  int   // the ply the event was scheduled for (stale events are dropped)
	Due  time.Time
	Arg  string
	// Attempts counts the claims of this event, this one included.
	Attempts int
}
