package discord

import (
	"context"
	"strings"
	"testing"
	"time"
)

// A final board whose pictures must wait for a render slot (every slot
// busy) is deferred within Discord's window, then delivered with its
// board and replay once a slot frees: waiting costs time, never the
// answer.
func TestFinalBoardWaitsForRenderSlot(t *testing.T) {
	w := newWorld(t, mode{name: "gateway"})
	w.window = 300 * time.Millisecond
	e := startBot(t, w)
	board, id := e.startGame(t, "30m")
	calls := e.do(e.click(bob, gameChannel, e.f.originalOf(board), idWith(t, board, `^g:`+id+`:0:resign$`)))
	ask := response(t, calls)

	slots := e.b.Renders().Slots()
	for range slots.Cap() {
		if err := slots.Acquire(context.Background()); err != nil {
			t.Fatal(err)
		}
	}
	from := e.f.count()
	done := make(chan []*call, 1)
	go func() {
		done <- e.do(e.click(bob, gameChannel, e.f.originalOf(ask), idWith(t, ask, `^g:`+id+`:0:resignyes$`)))
	}()
	// The deferral (type 6: the confirmation's message) reaches Discord
	// while the handler still waits for a slot.
	if c := e.f.Await(from, eventWait, func(c *call) bool {
		typ, _ := c.Payload["type"].(float64)
		return strings.HasSuffix(c.Path, "/callback") && (typ == 5 || typ == 6)
	}); c == nil {
		t.Fatal("the waiting interaction was not deferred")
	}
	select {
	case <-done:
		t.Fatal("the final board went out while every render slot was busy")
	default:
	}
	for range slots.Cap() {
		slots.Release()
	}
	var got []*call
	select {
	case got = <-done:
	case <-time.After(eventWait):
		t.Fatal("the final board never came after the slots freed")
	}
	final := theBoard(t, got, "resign")
	checkPNG(t, final)
	var gif bool
	for _, f := range final.Files {
		gif = gif || strings.HasSuffix(f.Name, ".gif")
	}
	if !gif {
		t.Fatalf("the deferred final board carries no replay: %v", final.Files)
	}
}
