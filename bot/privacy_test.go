package bot

import (
	"encoding/json"
	"testing"

	"github.com/tankbot/tankbot/store"
)

// TestErasureScrub: the erased side's name goes, the rest of the row's
// Extra stays.
func TestErasureScrub(t *testing.T) {
	sc := ErasureScrub()
	in, _ := json.Marshal(gameExtra{WhiteName: "Alice", BlackName: "Bob", Last: "e2", Moves: [2]int{3, 2}, Locale: "fr"})
	out, err := sc.Game(string(in), 1)
	if err != nil {
		t.Fatal(err)
	}
	var x gameExtra
	if err := json.Unmarshal([]byte(out), &x); err != nil || x.WhiteName != "Alice" || x.BlackName != store.DeletedPlayer || x.Last != "e2" || x.Moves != [2]int{3, 2} || x.Locale != "fr" {
		t.Fatalf("scrubbed game extra %s (%v)", out, err)
	}
	cin, _ := json.Marshal(challengeExtra{ChallengerName: "Alice", OpponentName: "Bob", Rematch: 7})
	cout, err := sc.Challenge(string(cin), 0)
	var c challengeExtra
	if err != nil || json.Unmarshal([]byte(cout), &c) != nil || c.ChallengerName != store.DeletedPlayer || c.OpponentName != "Bob" || c.Rematch != 7 {
		t.Fatalf("scrubbed challenge extra %s (%v)", cout, err)
	}
	if _, err := sc.Game("{not json", 0); err == nil {
		t.Fatal("scrubbed unreadable extra")
	}
}
