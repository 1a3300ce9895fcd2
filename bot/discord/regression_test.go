package discord

import (
	"testing"
	"time"

	"github.com/tankbot/tankbot/bot"
)

// TestServeBoardPingsAndStays reproduces issue 22. `tankbot serve`
// answered a board (a reply with a file) with a type 5 deferral in the
// POST's body, then a follow-up, then deleted @original. On Discord the
// first follow-up after a type 5 fills the placeholder (an edit: nobody
// is notified) and deleting @original deletes that very board. Here the
// fake Discord follows those rules: the board must be one new public
// message that pings bob and is still there afterwards, whether the
// handler answers at once or after its deferral (slow).
func TestServeBoardPingsAndStays(t *testing.T) {
	t.Parallel()
	for _, slow := range []bool{false, true} {
		f := newFakeDiscord(t)
		var hold chan struct{}
		if slow {
			hold = make(chan struct{})
			go func() {
				// Released once the deferral (the POST's body) was read.
				f.Await(0, eventWait, func(c *call) bool { return c.ViaBody })
				close(hold)
			}()
		}
		core := &scriptCore{hold: hold, handle: func(bot.Command) []bot.Reply {
			r := boardReply(t, nil, 5)
			r.Content, r.Mentions = "<@202> your move", []string{bob.id}
			return []bot.Reply{r}
		}}
		e := startEndpoint(t, f, core, newMemStore(), 20*time.Millisecond)
		e.do(2, map[string]any{"id": "1", "name": "move", "type": 1})
		var public []string
		for _, m := range f.Messages("300") {
			if m.Ephemeral {
				continue
			}
			public = append(public, m.ID)
			if m.Deleted {
				t.Errorf("slow %v: the board %s was deleted", slow, m.ID)
			}
			if len(m.Files) != 1 {
				t.Errorf("slow %v: message %s carries %d files, want the board", slow, m.ID, len(m.Files))
			}
			if len(m.Notified) != 1 || m.Notified[0] != bob.id {
				t.Errorf("slow %v: message %s pinged %v, want bob", slow, m.ID, m.Notified)
			}
		}
		if len(public) != 1 {
			t.Errorf("slow %v: %d public messages %v, want exactly one: the board", slow, len(public), public)
		}
	}
}
