package bot

import (
	"context"
	"errors"
	"time"
)

// repo is what the handlers need from persistence. store.go adapts
// *store.Store to it; keeping the handlers on this narrow seam lets the
// store evolve without touching them.
type repo interface {
	settings(ctx context.Context, userID string) (userSettings, error)
	saveSettings(ctx context.Context, userID string, s userSettings) error

	createChallenge(ctx context.Context, c *challengeRec) (int64, error)
	challenge(ctx context.Context, id int64) (*challengeRec, error)
	// setChallengeStatus moves a pending challenge to status; false when it
	// was no longer pending (someone else answered first).
	setChallengeStatus(ctx context.Context, id int64, status string) (bool, error)
	pendingChallenges(ctx context.Context, userID string) ([]*challengeRec, error)

	createGame(ctx context.Context, g *gameRec) (int64, error)
	game(ctx context.Context, id int64) (*gameRec, error)
	// saveGame writes g if the stored revision is still g.Rev-1 (g.Rev was
	// incremented by the caller); move, when set, is appended to the log at
	// ply g.Ply. False means someone else saved first.
	saveGame(ctx context.Context, g *gameRec, move string) (bool, error)
	// takeBack saves g (compare-and-set on the revision like saveGame) and
	// drops the last move of the log.
	takeBack(ctx context.Context, g *gameRec) (bool, error)
	activeGames(ctx context.Context, guildID string) ([]*gameRec, error)
	// channelGames are the active games played in a channel or thread.
	channelGames(ctx context.Context, channelID string) ([]*gameRec, error)
	moveLog(ctx context.Context, id int64) ([]string, error)
	// lastGame is the user's most recent game in a channel, finished or not.
	lastGame(ctx context.Context, userID, channelID string) (*gameRec, error)

	schedule(ctx context.Context, e event) error
	cancelEvents(ctx context.Context, ref int64, kinds ...string) error
	// claimDue removes and returns the events due at now.
	claimDue(ctx context.Context, now time.Time) ([]event, error)
}

var errNotFound = errors.New("not found")

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
	ID        int64
	Rev       int
	Game      string
	Variant   string
	Start     string
	Pos       string
	Ply       int
	Turn      int    // side to move (0 white, 1 black), from the position
	Last      string // last move in notation
	White     User
	Black     User
	GuildID   string
	ChannelID string // where the game is played (thread or channel)
	Clock     string
	Remaining [2]time.Duration
	TurnStart time.Time
	Status    string
	Result    string
	Reason    string
	DrawOffer int // 0 none, 1 white offers, 2 black offers
	Takeback  int // 0 none, 1 white asks, 2 black asks
	Moves     [2]int
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
)

type event struct {
	Kind string
	Ref  int64 // game or challenge id
	Ply  int   // the ply the event was scheduled for (stale events are dropped)
	Due  time.Time
	Arg  string
}
