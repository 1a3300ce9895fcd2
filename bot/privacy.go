package bot

import (
	"encoding/json"
	"fmt"

	"github.com/tankbot/tankbot/store"
)

// ErasureScrub removes an erased player's display name from the Extra the
// bot keeps on game and challenge rows (store.DeleteUser cannot read it):
// the name becomes store.DeletedPlayer, everything else stays.
func ErasureScrub() store.Scrub {
	return store.Scrub{Game: scrubGameExtra, Challenge: scrubChallengeExtra}
}

func scrubGameExtra(extra string, side int) (string, error) {
	var x gameExtra
	if extra != "" {
		if err := json.Unmarshal([]byte(extra), &x); err != nil {
			return "", fmt.Errorf("game extra: %w", err)
		}
	}
	if side == 0 {
		x.WhiteName = store.DeletedPlayer
	} else {
		x.BlackName = store.DeletedPlayer
	}
	out, err := json.Marshal(x)
	return string(out), err
}

func scrubChallengeExtra(extra string, side int) (string, error) {
	var x challengeExtra
	if extra != "" {
		if err := json.Unmarshal([]byte(extra), &x); err != nil {
			return "", fmt.Errorf("challenge extra: %w", err)
		}
	}
	if side == 0 {
		x.ChallengerName = store.DeletedPlayer
	} else {
		x.OpponentName = store.DeletedPlayer
	}
	out, err := json.Marshal(x)
	return string(out), err
}
