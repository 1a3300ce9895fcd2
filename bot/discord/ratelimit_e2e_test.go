package discord

import (
	"context"
	"math/rand/v2"
	"strings"
	"testing"
	"time"

	"github.com/tankbot/tankbot/bot/discord/discordtest"
	"github.com/tankbot/tankbot/store"
)

// botTokenCall says whether a call spent the bot token's global budget:
// every route but an interaction's callback and its webhook.
func botTokenCall(c *call) bool {
	return !strings.HasPrefix(c.Path, "/api/v9/interactions/") && !strings.HasPrefix(c.Path, "/api/v9/webhooks/")
}

// TestBotTokenRequestsPerMove (issue 24): a game played through the fake
// Discord (Discord's global and per-route limits on, on the bot's clock),
// in both transports, one move every 5 minutes and one every 20. The
// previous board is the previous move's interaction answer: while its
// token is fresh the sweep strips it through that interaction's webhook,
// so a game moving at least every 15 minutes costs at most 0.2 bot-token
// requests per move; beyond, the sweep falls back to the bot token. Either
// way every old board loses its buttons.
func TestBotTokenRequestsPerMove(t *testing.T) {
	for _, m := range modes {
		for _, pace := range []time.Duration{5 * time.Minute, 20 * time.Minute} {
			t.Run(m.name+"/"+pace.String(), func(t *testing.T) {
				t.Parallel()
				testBotTokenRequestsPerMove(t, m, pace)
			})
		}
	}
}

func testBotTokenRequestsPerMove(t *testing.T, m mode, pace time.Duration) {
	const moves = 12
	w := newWorld(t, m)
	w.f.Now = w.clk.Now
	w.f.SetGlobalLimit(discordtest.DiscordGlobalLimit)
	w.f.SetRouteLimits(discordtest.DiscordRouteLimits)
	e := startBot(t, w)
	g := newGame(t, checkMap)
	board, _ := e.startGame(t, "untimed")
	prev := e.f.originalOf(board)
	e.drainStrips(t)
	from := e.f.count()
	rng := rand.New(rand.NewPCG(7, uint64(pace)))
	for range moves {
		w.clk.Advance(pace)
		mv := g.randomMove(rng)
		calls := e.do(e.slash(g.toMove(), gameChannel, "move", "move", mv))
		b := theBoard(t, calls, "move "+mv)
		g.play(mv)
		e.retired(t, calls, prev, "move "+mv)
		e.drainStrips(t)
		prev = e.f.originalOf(b)
	}
	calls := e.f.callsFrom(from)
	var bot, hook, limited int
	var botCalls []string
	for _, c := range calls {
		if c.Status == 429 {
			limited++
		}
		if botTokenCall(c) {
			bot++
			botCalls = append(botCalls, c.Method+" "+c.Path)
		} else {
			hook++
		}
	}
	perMove := float64(bot) / moves
	t.Logf("%s, a move every %v: %d moves, %d bot-token requests (%.2f per move), %d interaction requests, %d answered 429 (global %d, route %d)",
		m.name, pace, moves, bot, perMove, hook, limited, w.f.GlobalRefused(), w.f.RouteRefused())
	if live, _, _ := liveOldBoards(w.f.CallsFrom(0), w.f); len(live) != 0 {
		t.Fatalf("old boards still have buttons: %v", live)
	}
	if limited != 0 {
		t.Errorf("%d requests answered 429: discordgo's limiter and the adapter should stay within the buckets", limited)
	}
	if pace < store.BoardHookLife && perMove > 0.2 {
		t.Errorf("%.2f bot-token requests per move, want at most 0.2: %v", perMove, botCalls)
	}
	if pace > store.BoardHookLife && bot < moves {
		t.Errorf("%d bot-token requests for %d moves 20 minutes apart: the expired tokens' boards were stripped otherwise?", bot, moves)
	}
}

// drainStrips runs scheduler passes: what the last move queued goes.
func (e *e2e) drainStrips(t *testing.T) {
	t.Helper()
	for range 2 {
		if err := e.b.Tick(context.Background()); err != nil {
			t.Logf("scheduler pass: %v", err)
		}
	}
}
