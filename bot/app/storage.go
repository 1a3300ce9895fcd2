package app

import (
	"context"
	"errors"
	"time"

	"github.com/tankbot/tankbot/bot/game"
	"github.com/tankbot/tankbot/bot/outbox"
	"github.com/tankbot/tankbot/bot/tournament/director"
	"github.com/tankbot/tankbot/store"
)

// Storage is everything the bot keeps, as one interface per kind of
// record: the handlers, the scheduler and the outbox reach the database
// only through these. storage_store.go implements them on *store.Store
// (see OpenSQLite, NewStorage); tests wrap Storage to count or fail calls.
type Storage interface {
	Settings
	Challenges
	Games
	Events
	Outbox
	Boards
	Ratings
	Puzzles
	Dailies
	Reviews
	Guilds
	Archive
	UserData
	Tournaments
	Places
	Close() error
}

// Settings is a user's own settings (/settings) and last seen locale.
type Settings interface {
	Settings(ctx context.Context, userID string) (userSettings, error)
	SaveSettings(ctx context.Context, userID string, s userSettings) error
	// setSeenLocale records the Discord locale last seen from a user.
	setSeenLocale(ctx context.Context, userID, locale string) error
}

// Challenges are the challenges, open and answered.
type Challenges interface {
	// CreateChallenge stores c with its effects (Ref 0: the new challenge).
	CreateChallenge(ctx context.Context, c *ChallengeRec, eff Effects) (int64, error)
	Challenge(ctx context.Context, id int64) (*ChallengeRec, error)
	// SetChallengeStatus moves a pending challenge to status with its
	// effects; false when it was no longer pending (someone else answered
	// first) and nothing was written.
	SetChallengeStatus(ctx context.Context, id int64, status string, eff Effects) (bool, error)
	PendingChallenges(ctx context.Context, userID string) ([]*ChallengeRec, error)
	// acceptChallenge marks a pending challenge accepted and creates its
	// game in one transaction with eff (Ref 0: the new game): errTaken when
	// someone answered first, errActiveGame when these players already play
	// here.
	acceptChallenge(ctx context.Context, id int64, g *Game, eff Effects) (*Game, error)
	// setChallengeMessage records the message carrying a challenge.
	setChallengeMessage(ctx context.Context, id int64, messageID string) error
}

// Games are the games being played: their rows and move logs, and the
// messages showing their boards.
type Games interface {
	game(ctx context.Context, id int64) (*Game, error)
	// numberedGame is game #number of a guild (any status); errNotFound
	// when the guild has no such game.
	numberedGame(ctx context.Context, guild string, number int) (*Game, error)
	// saveGame writes g. Without a move it is a compare-and-set on the
	// revision: the stored one must still be g.Rev-1 (the caller
	// incremented it). With a move, the move joins the log at ply g.Ply
	// if the stored ply is still g.Ply-1. False means someone else saved
	// first.
	saveGame(ctx context.Context, g *Game, move *moveRec) (bool, error)
	// saveGameWith is saveGame writing eff (Ref 0: g) in the same
	// transaction: nothing of either is written when it returns false.
	saveGameWith(ctx context.Context, g *Game, move *moveRec, eff Effects) (bool, error)
	// takeBack saves g (at ply g.Ply, n less than stored), drops the
	// last n moves of the log and writes eff, in one transaction.
	takeBack(ctx context.Context, g *Game, n int, eff Effects) (bool, error)
	// repetitions counts the moves of game id that reached the position
	// with repetition key key; partial when the log has moves stored
	// without keys (the caller must replay).
	repetitions(ctx context.Context, id int64, key string) (n int, partial bool, err error)
	ActiveGames(ctx context.Context, guildID string) ([]*Game, error)
	// channelGames are the active games played in a channel or thread.
	channelGames(ctx context.Context, channelID string) ([]*Game, error)
	MoveLog(ctx context.Context, id int64) ([]string, error)
	// lastGame is the user's most recent game in a channel, finished or not.
	lastGame(ctx context.Context, userID, channelID string) (*Game, error)
	// SetRated marks an active game rated or casual (a tournament forfeit
	// is never rated).
	SetRated(ctx context.Context, id int64, rated bool) error

	// setBoardMessage records that the board of game id at sequence seq
	// was delivered as messageID ("" keeps the stored id: a transport
	// without ids) and cancels the fallback pings it answers (seq 0:
	// none), in one transaction; the message was made through
	// interaction webhook hook (zero: the bot token).
	setBoardMessage(ctx context.Context, id int64, seq int, messageID string, hook store.BoardHook) error
	// setPendingBoard records the board of game id at seq as about to be
	// sent through hook (store.RecordPendingBoard).
	setPendingBoard(ctx context.Context, id int64, seq int, hook store.BoardHook) error

	// timedGames are all active games with a clock.
	timedGames(ctx context.Context) ([]*Game, error)
	// reconcileFlags gives every active timed game exactly one pending flag
	// event for its ply; plan gives the events of a game that has none
	// (the flag first). It returns how many games were fixed.
	reconcileFlags(ctx context.Context, plan func(*Game) []Event) (int, error)
}

// Events are the scheduled events (flag-falls, reminders, expiries, the
// computer's turns) and the heartbeat that dates downtime.
type Events interface {
	// claimDue leases the events due at now; each must be completed once
	// handled, or it comes back when the lease runs out.
	claimDue(ctx context.Context, now time.Time) ([]Event, error)
	// complete marks an event done, writing eff (Ref 0: the event's ref)
	// in the same transaction.
	complete(ctx context.Context, id int64, eff Effects) error
	// heartbeat records that the bot is alive at now; lastHeartbeat reads it
	// (zero when never recorded).
	heartbeat(ctx context.Context, now time.Time) error
	lastHeartbeat(ctx context.Context) (time.Time, error)
}

// Outbox is the posts queued for delivery out of band.
type Outbox interface {
	// claimOutbox leases up to limit queued posts due at now.
	claimOutbox(ctx context.Context, now time.Time, limit int) ([]outMsg, error)
	// dropPost cancels a claimed post found needless at delivery (a
	// fallback ping whose move was superseded).
	dropPost(ctx context.Context, id int64, reason string) error
	// sent records Discord's id for a delivered post.
	sent(ctx context.Context, id int64, messageID string) error
	// retryAt puts a post back to be tried at next.
	retryAt(ctx context.Context, id int64, next time.Time, reason string) error
	// postpone puts a post back to be tried at next without counting the
	// claim as an attempt (rate limited, or not tried at all).
	postpone(ctx context.Context, id int64, next time.Time, reason string) error
	// giveUp records that a post will not be delivered.
	giveUp(ctx context.Context, id int64, reason string) error
	// purge deletes events and posts finished before before.
	purge(ctx context.Context, before time.Time) (int64, error)
	// pauseOutbox holds every pending post until until (a global rate
	// limit covers the whole fleet's token).
	pauseOutbox(ctx context.Context, until time.Time) error
}

// Ratings is a player's ratings and their changes per game.
type Ratings interface {
	Leaderboard(ctx context.Context, guild, kind string, provisionalRD float64, offset, limit int) (page []*store.PlayerRating, total int, err error)
	PlayerRatings(ctx context.Context, guild, player string) ([]*store.PlayerRating, error)
	RatingChanges(ctx context.Context, gameID int64) ([]store.RatingChange, error)
	ApplyRatedResult(ctx context.Context, gameID int64, rate store.RateFunc) ([2]store.RatingChange, error)
}

// Puzzles is solving puzzles: the active one, the puzzle ratings, the mined pool.
type Puzzles interface {
	ActivePuzzle(ctx context.Context, player string) (*store.ActivePuzzle, error)
	SetActivePuzzle(ctx context.Context, a *store.ActivePuzzle) error
	UpdateActivePuzzle(ctx context.Context, old, next *store.ActivePuzzle) error
	FinishPuzzle(ctx context.Context, a *store.ActivePuzzle, solved bool, at time.Time, rate store.PuzzleRateFunc) (*store.PuzzleRating, bool, error)
	PuzzleRating(ctx context.Context, player, game string) (*store.PuzzleRating, error)
	PuzzleRatings(ctx context.Context, player string) ([]*store.PuzzleRating, error)
	PuzzlesTried(ctx context.Context, player, game string) (map[string]bool, error)
	PuzzleCurrentRatings(ctx context.Context, game string) (map[string]float64, error)
	PoolPuzzle(ctx context.Context, id string) (*store.PoolPuzzle, error)
	PoolPuzzles(ctx context.Context, guild, game string) ([]*store.PoolPuzzle, error)
	UnminedGames(ctx context.Context, limit int) ([]*store.Game, error)
	MarkMined(ctx context.Context, game int64, found []*store.PoolPuzzle, at time.Time) (int, error)
}

// Dailies is a server's daily puzzle posts and their solvers.
type Dailies interface {
	DailyPost(ctx context.Context, guild, day string) (store.DailyPost, error)
	DailySolvers(ctx context.Context, guild, day string, until time.Time) ([]store.DailySolver, error)
	FinishDaily(ctx context.Context, player, puzzleID string, solved bool, at time.Time) error
	OpenDaily(ctx context.Context, guild, day, player, name string) (store.DailySolver, error)
	PostDaily(ctx context.Context, p store.DailyPost, next store.Event, eff store.Effects) (bool, error)
	RecentDailies(ctx context.Context, guild string, n int) ([]store.DailyPost, error)
	SetDailyMessage(ctx context.Context, guild, day, messageID string) error
}

// Reviews is a finished game's stored review.
type Reviews interface {
	GameReview(ctx context.Context, gameID int64) (*store.GameReview, error)
	SaveGameReview(ctx context.Context, rv *store.GameReview) error
}

// Guilds is a server's settings (/server) and its web links.
type Guilds interface {
	GuildSettings(ctx context.Context, guild string) (store.GuildSettings, error)
	SaveGuildSettings(ctx context.Context, g store.GuildSettings, eff ...store.Effects) error
	WebLinks(ctx context.Context, guild string) (bool, error)
	SetWebLinks(ctx context.Context, guild string, on bool) error
	WebToken(ctx context.Context, gameID int64) (string, error)
}

// Archive is the store's own rows of games, for records, profiles and the archive.
type Archive interface {
	Game(ctx context.Context, id int64) (*store.Game, error)
	FinishedGames(ctx context.Context, guild, user string, offset, limit int) ([]*store.Archived, error)
	NextNumber(ctx context.Context, guild string) (int, error)
	HideGame(ctx context.Context, gameID int64, user string, hide bool) error
	GameRender(ctx context.Context, gameID int64, name string) ([]byte, error)
	SaveGameRender(ctx context.Context, gameID int64, name string, data []byte) error
}

// UserData is one user's data, exported or erased (/data).
type UserData interface {
	ExportUser(ctx context.Context, user string) (*store.UserData, error)
	DeleteUser(ctx context.Context, user string, scrub store.Scrub) (store.Erased, error)
}

// Tournaments is the tournaments: the director's records, a server's list
// and the standings posts queued outside an advance.
type Tournaments interface {
	director.Store
	GuildTournaments(ctx context.Context, guild string) ([]*store.Tournament, error)
	Enqueue(ctx context.Context, m store.Message) (int64, error)
}

// Effects are what a change implies beyond its own row, written in its
// transaction: events to drop and add, and posts to deliver out of band.
type Effects struct {
	Cancel   []CancelSpec
	Schedule []Event       // Ref 0: the row being written
	Posts    []outbox.Post // each with ChannelID set; Files are not kept (boards are re-drawn at delivery)
	// ping, when set, is a move's answer queued as its fallback ping (a
	// board whose recorder names the game and the move's sequence, with
	// ChannelID set), first tried at pingDue unless the answer's board is
	// recorded first (see pingFallbackDelay).
	ping    *outbox.Post
	pingDue time.Time
}

// CancelSpec drops the pending events of ref (0: the row being written) of
// the given kinds (all when none).
type CancelSpec struct {
	ref   int64
	Kinds []string
}

// outMsg is a queued post as claimed from the outbox.
type outMsg struct {
	ID    int64
	Ping  bool // a move's fallback ping
	Strip bool // strips the superseded boards of Game (boards.go)
	// Game and Seq are a fallback ping's (the move it answers) and a
	// strip's (Game).
	Game     int64
	Seq      int
	Channel  string
	Nonce    string
	Post     outbox.Post
	Attempts int
}

// moveRec is a move as it joins the log.
type moveRec struct {
	Notation string
	Side     int
	Spent    time.Duration
	RepKey   string // repetition key of the position after the move ("" when the game has none)
}

var (
	ErrNotFound   = errors.New("not found")
	errTaken      = errors.New("challenge already answered")
	errActiveGame = errors.New("these players already have an active game here")
	ErrDuplicate  = errors.New("a challenge between these players is pending")
)

type userSettings struct {
	Locale string
	Flip   bool
	// Text: boards in words too (text mode, issue 42).
	Text bool
	// Seen is the Discord locale last seen from the user (read only:
	// saveSettings leaves it; setSeenLocale writes it).
	Seen string
	// DMNotices: send to the user's DM with the bot what cannot be posted
	// where they play; DMChannel is that DM when known (read only here:
	// setDMChannel writes it).
	DMNotices bool
	DMChannel string
}

// Challenge statuses.
const (
	ChPending   = "pending"
	chAccepted  = "accepted"
	ChDeclined  = "declined"
	ChCancelled = "cancelled"
	ChExpired   = "expired"
)

type ChallengeRec struct {
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
	// Locale is the server's language when the challenge was made: the
	// scheduler edits the challenge message in it.
	Locale string
	// MessageID is the message carrying the challenge, when the transport
	// recorded it (challenges older than that have none).
	MessageID string
	Rated     bool // the game it starts counts for ratings (/challenge rated:false: casual)
	AILevel   int  // a game against the computer at this level (never stored: accepted at once)
	// NoPosts: made where the bot is not a member (places.go); its game
	// is too.
	NoPosts bool
}

// Game statuses.
const (
	GmActive   = game.Active
	gmFinished = game.Finished
)

// Game is a game as the bot keeps it; bot/game owns its invariants.
type Game = game.Game

// Event kinds.
const (
	evFlag   = "flag"
	evRemind = "remind"
	EvExpire = "expire"
	// evAI is the computer's turn in a game against the bot: written with
	// the change that made it the computer's turn, fired by the AI pool.
	evAI = "ai"
)

type Event struct {
	ID   int64 // set when claimed
	Kind string
	Ref  int64 // game or challenge id
	Ply  int   // the ply the event was scheduled for (stale events are dropped)
	Due  time.Time
	Arg  string
	// Attempts counts the claims of this event, this one included.
	Attempts int
}
