package discord

import (
	"context"
	"errors"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/tankbot/tankbot/bot"
	"github.com/tankbot/tankbot/bot/i18n"
	"github.com/tankbot/tankbot/store"
)

// harmless checks that the calls made for a repeated delivery of ev are
// its first response only, and that response changes nothing: a
// component's is an acknowledgement without change (type 6), a command's
// or modal's a private note from the catalog.
func harmless(t *testing.T, calls []*call, ev map[string]any) {
	t.Helper()
	if len(calls) != 1 || calls[0].Method != "POST" || !strings.Contains(calls[0].Path, "/interactions/"+ev["id"].(string)+"/") {
		var all []string
		for _, c := range calls {
			all = append(all, c.Method+" "+c.Path)
		}
		t.Fatalf("a repeated interaction made %v, want its first response only", all)
	}
	cb := calls[0]
	typ, _ := cb.Payload["type"].(float64)
	if ev["type"] == 3 {
		if typ != 6 {
			t.Errorf("a repeated click answered %v, want 6 (no change)", cb.Payload)
		}
		return
	}
	if typ != 4 || int(flagsOfData(cb))&64 == 0 || data(cb)["content"] != i18n.T("en-US", "refuse.replayed") {
		t.Errorf("a repeated command answered %v, want the private refuse.replayed note", cb.Payload)
	}
}

// flagsOfData is the flags the answer asked for (not what the fake made
// of it: a repeated answer is refused as already acknowledged).
func flagsOfData(c *call) float64 { f, _ := data(c)["flags"].(float64); return f }

// plies is how many moves the store holds for game id.
func plies(t *testing.T, w *world, id string) int {
	t.Helper()
	gid, err := strconv.ParseInt(id, 10, 64)
	if err != nil {
		t.Fatal(err)
	}
	db, err := store.Open(context.Background(), w.db)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	moves, err := db.Moves(context.Background(), gid)
	if err != nil {
		t.Fatal(err)
	}
	return len(moves)
}

// e2eReplayRunsOnce: the same interaction delivered twice (a signed POST
// replayed within Discord's window, or a repeated gateway event) is
// handled once; the second delivery is answered harmlessly.
func e2eReplayRunsOnce(t *testing.T, w *world) {
	e := startBot(t, w)
	g := newGame(t, checkMap)
	board, id := e.startGame(t, "30m")

	mv := g.anyMove()
	click := e.click(alice, gameChannel, w.f.originalOf(board), "g:"+id+":0:move", mv)
	theBoard(t, e.do(click), "a click")
	g.play(mv)
	harmless(t, e.do(click), click)

	mv = g.anyMove()
	slash := e.slash(bob, gameChannel, "move", "move", mv)
	theBoard(t, e.do(slash), "a /move")
	harmless(t, e.do(slash), slash)

	if n := plies(t, w, id); n != 2 {
		t.Errorf("%d moves stored after two moves each delivered twice, want 2", n)
	}
}

// TestReplayAcrossInstances: two `serve` instances on one database; an
// interaction answered by one and delivered again to the other runs once.
func TestReplayAcrossInstances(t *testing.T) {
	t.Parallel()
	w := newWorld(t, mode{name: "http", http: true})
	e1 := startBot(t, w)
	e2 := startBot(t, w)
	g := newGame(t, checkMap)
	board, id := e1.startGame(t, "30m")

	mv := g.anyMove()
	click := e1.click(alice, gameChannel, w.f.originalOf(board), "g:"+id+":0:move", mv)
	theBoard(t, e1.do(click), "a click")
	g.play(mv)
	harmless(t, e2.do(click), click)

	slash := e2.slash(bob, gameChannel, "move", "move", g.anyMove())
	theBoard(t, e2.do(slash), "a /move")
	harmless(t, e1.do(slash), slash)

	if n := plies(t, w, id); n != 2 {
		t.Errorf("%d moves stored after two moves each delivered to both instances, want 2", n)
	}
}

// brokenMemory is an adapter store whose interaction memory fails.
type brokenMemory struct{ *memStore }

func (brokenMemory) FirstInteraction(context.Context, string, time.Time) (bool, error) {
	return false, errors.New("database unreachable")
}

func (brokenMemory) SeenInteraction(context.Context, string) (bool, error) {
	return false, errors.New("database unreachable")
}

// TestReplayMemoryDownHandlesAnyway: when the store cannot say whether an
// interaction is new, the adapter logs it and handles the interaction.
func TestReplayMemoryDownHandlesAnyway(t *testing.T) {
	t.Parallel()
	f := newFakeDiscord(t)
	logs := &syncBuffer{}
	core := &scriptCore{handle: func(bot.Command) []bot.Reply { return []bot.Reply{{Content: "played"}} }}
	h := startHarness(t, f, core, brokenMemory{newMemStore()}, logs, 5*time.Second)
	cb := one(t, h.interact(h.slash(alice, "300", "move", "move", "e2 > e4")), "POST", "/callback")
	if data(cb)["content"] != "played" {
		t.Errorf("answered %v, want the handler's answer", cb.Payload)
	}
	if !strings.Contains(logs.String(), "interaction memory unavailable") {
		t.Error("the store's failure was not logged")
	}
}
