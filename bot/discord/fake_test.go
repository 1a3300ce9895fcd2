package discord

import (
	"net/http"
	"net/http/httptest"
	"testing"
	"time"

	"github.com/tankbot/tankbot/bot/discord/discordtest"
)

// fakeDiscord is the shared fake Discord (discordtest) under the names
// these tests use.
type fakeDiscord struct {
	*discordtest.Fake
	srv   *httptest.Server
	ready chan struct{}
}

type (
	call       = discordtest.Call
	syncBuffer = discordtest.LogBuffer
)

func newFakeDiscord(t testing.TB) *fakeDiscord {
	d := discordtest.New(t, testApp)
	// Discord's 3 s for a first answer is wall time in the adapter (the
	// harness gives it the fake's window): a CPU starved for seconds would
	// lose answers. Here both allow a minute; the adapter still defers
	// after its direct window, and the tests of the 3 s rule set it (and
	// the fake's clock) themselves.
	d.ResponseWindow = time.Minute
	return &fakeDiscord{Fake: d, srv: d.Server, ready: d.Ready}
}

func (f *fakeDiscord) client() *http.Client { return f.Client() }
func (f *fakeDiscord) failNext(method, pathContains string, status, code, n int) {
	f.FailNext(method, pathContains, status, code, n)
}
func (f *fakeDiscord) rateLimitNext(method, pathContains string, retryAfter float64, n int) {
	f.RateLimitNext(method, pathContains, retryAfter, n)
}
func (f *fakeDiscord) callsFrom(from int) []*call   { return f.CallsFrom(from) }
func (f *fakeDiscord) count() int                   { return f.Count() }
func (f *fakeDiscord) dispatch(event string, d any) { f.Dispatch(event, d) }
func (f *fakeDiscord) originalOf(cb *call) string   { return f.OriginalOf(cb) }
func (f *fakeDiscord) lastThreadID() string         { return f.LastThreadID() }

var (
	duplicateCustomID = discordtest.DuplicateCustomID
	customIDsOf       = discordtest.CustomIDs
)
