package app

import (
	"encoding/json"
	"fmt"

	"github.com/tankbot/tankbot/store"
)

// ErasureScrub removes an erased player's display name from the Extra the
// bot keeps on game and challenge rows (store.DeleteUser cannot read it).
// Names have columns of their own since migration 0006, which the store
// replaces itself; rows written before it may still carry the name in
// Extra under its old key ("wn"/"bn" on games, "cn"/"on" on challenges),
// which goes. Everything else stays.
func ErasureScrub() store.Scrub {
	return store.Scrub{
		Game:      func(extra string, side int) (string, error) { return dropKey(extra, [2]string{"wn", "bn"}[side&1]) },
		Challenge: func(extra string, side int) (string, error) { return dropKey(extra, [2]string{"cn", "on"}[side&1]) },
	}
}

// dropKey removes key from a JSON object; an empty extra stays empty.
func dropKey(extra, key string) (string, error) {
	if extra == "" {
		return "", nil
	}
	var x map[string]json.RawMessage
	if err := json.Unmarshal([]byte(extra), &x); err != nil {
		return "", fmt.Errorf("extra: %w", err)
	}
	if _, ok := x[key]; !ok {
		return extra, nil
	}
	delete(x, key)
	out, err := json.Marshal(x)
	return string(out), err
}
