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
// message that pings bob and is still there afterwards.
func TestServeBoardPingsAndStays(t *testing.T) {
	t.Parallel()
	f := newFakeDiscord(t)
	core := &scriptCore{handle: func(bot.Command) []bot.Reply {
		r := boardReply(t, 5)
		r.Content, r.Mentions = "<@202> your move", []string{bob.id}
		return []bot.Reply{r}
	}}
	e := startEndpoint(t, f, core, newMemStore(), time.Second)
	e.do(2, map[string]any{"id": "1", "name": "move", "type": 1})
	var public []string
	for _, m := range f.Messages("300") {
		if m.Ephemeral {
			continue
		}
		public = append(public, m.ID)
		if m.Deleted {
			t.Errorf("the board %s was deleted", m.ID)
		}
		if len(m.Files) != 1 {
			t.Errorf("message %s carries %d files, want the board", m.ID, len(m.Files))
		}
		if len(m.Notified) != 1 || m.Notified[0] != bob.id {
			t.Errorf("message %s pinged %v, want bob", m.ID, m.Notified)
		}
	}
	if len(public) != 1 {
		t.Errorf("%d public messages %v, want exactly one: the board", len(public), public)
	}
}
