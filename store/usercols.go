package store

// The one list of every column that holds a user's Discord id, display
// name, or text that may name them. ExportUser and DeleteUser act on these
// columns; TestUserColumnsCoverSchema walks the live schema of both
// backends and fails when a table gains a user-ish column (player, name,
// creator, entrant, solver, author, …) that is neither here nor in
// NotUserColumns. A new feature storing users adds its columns here and
// its rule to DeleteUser.

// Holds says what a user column holds.
type Holds string

const (
	HoldsID   Holds = "id"   // a Discord user id
	HoldsName Holds = "name" // a display name as typed
	HoldsText Holds = "text" // free text or a payload that may name the user
)

// Erasure says what DeleteUser does to a user's value in a column.
type Erasure string

const (
	// EraseRow deletes the user's rows (keyed by this id column, or, for a
	// name column, the id column of the same row).
	EraseRow Erasure = "delete row"
	// EraseRename replaces the user's id or name by DeletedPlayer (in a
	// tournament, "deleted player N", so that two erased entrants stay
	// apart), keeping the row for the other players' records.
	EraseRename Erasure = "rename"
	// EraseScrub rewrites the user out of an opaque column (Scrub).
	EraseScrub Erasure = "scrub"
	// EraseDropRelated deletes the rows of the user's games (or, for the
	// outbox, those that name them): they are derived and redrawn on demand
	// (reviews, pictures) or would post the name (queued messages).
	EraseDropRelated Erasure = "drop"
)

// UserColumn is one column of UserColumns.
type UserColumn struct {
	Table, Column string
	Holds         Holds
	Erase         Erasure
}

// UserColumns is every column holding a user's id or name, or text that
// may name them.
var UserColumns = []UserColumn{
	{"players", "id", HoldsID, EraseRow},
	{"players", "name", HoldsName, EraseRow},
	{"players", "dm_channel", HoldsID, EraseRow},
	{"ratings", "player", HoldsID, EraseRow},
	{"rating_changes", "player", HoldsID, EraseRename},
	{"games", "player0", HoldsID, EraseRename},
	{"games", "player1", HoldsID, EraseRename},
	{"games", "name0", HoldsName, EraseRename},
	{"games", "name1", HoldsName, EraseRename},
	{"games", "extra", HoldsText, EraseScrub},
	{"challenges", "challenger", HoldsID, EraseRename},
	{"challenges", "challenged", HoldsID, EraseRename},
	{"challenges", "challenger_name", HoldsName, EraseRename},
	{"challenges", "challenged_name", HoldsName, EraseRename},
	{"challenges", "extra", HoldsText, EraseScrub},
	{"outbox", "payload", HoldsText, EraseDropRelated},
	{"tournaments", "creator", HoldsID, EraseRename},
	{"tournament_entrants", "player", HoldsID, EraseRename},
	{"tournament_entrants", "name", HoldsName, EraseRename},
	{"tournament_pairings", "white", HoldsID, EraseRename},
	{"tournament_pairings", "black", HoldsID, EraseRename},
	{"puzzle_active", "player", HoldsID, EraseRow},
	{"puzzle_ratings", "player", HoldsID, EraseRow},
	{"puzzle_attempts", "player", HoldsID, EraseRow},
	{"daily_solvers", "player", HoldsID, EraseRow},
	{"daily_solvers", "name", HoldsName, EraseRow},
	{"game_reviews", "annotated", HoldsText, EraseDropRelated},
	{"game_reviews", "summary", HoldsText, EraseDropRelated},
	{"game_renders", "data", HoldsText, EraseDropRelated},
}

// NotUserColumns are columns whose names look like a user's but hold
// something else, each with what it holds.
var NotUserColumns = map[string]string{
	"game_renders.name":       "the picture's file name (replay.gif, ply-12-en.png)",
	"events.payload":          "an event's argument: a server id (the daily puzzle)",
	"puzzle_pool.line":        "a puzzle as a collection line; its source is server#game number",
	"tournaments.max_players": "a number: the most entrants allowed",
}
