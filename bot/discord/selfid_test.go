package discord

import (
	"testing"
	"time"
)

// selfCore records the bot's own user id the adapter reports from READY.
type selfCore struct {
	scriptCore
	self chan string
}

func (s *selfCore) SetSelfID(id string) { s.self <- id }

// The gateway's READY tells the core its own user id: the computer
// opponent plays as that user.
func TestReadySetsSelfID(t *testing.T) {
	t.Parallel()
	f := newFakeDiscord(t)
	core := &selfCore{self: make(chan string, 4)}
	startHarness(t, f, core, newMemStore(), nil, time.Second)
	select {
	case id := <-core.self:
		if id != "100" {
			t.Fatalf("self id %q, want the READY user's 100", id)
		}
	case <-time.After(eventWait): // a hang guard, not a measurement
		t.Fatal("READY did not set the bot's own user id")
	}
}
