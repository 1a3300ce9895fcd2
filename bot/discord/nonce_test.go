package discord

import (
	"context"
	"testing"
	"time"

	"github.com/tankbot/tankbot/bot"
)

// An outbox post resent after a crash (same nonce) is answered by Discord
// with the first message: nothing new is posted. With and without files.
func TestPostSendsEnforcedNonce(t *testing.T) {
	t.Parallel()
	f := newFakeDiscord(t)
	now := time.Date(2026, 5, 1, 12, 0, 0, 0, time.UTC)
	f.Now = func() time.Time { return now }
	a, err := New(Options{Token: testToken, AppID: testApp, RESTBaseURL: f.srv.URL}, newMemStore())
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	for _, withFile := range []bool{false, true} {
		r := bot.Reply{Content: "<@1> ran out of time", Mentions: []string{"1"}, Nonce: "n-" + map[bool]string{false: "text", true: "file"}[withFile]}
		if withFile {
			r.Files = []bot.File{{Name: "board.png", ContentType: "image/png", Data: testPNG(t), Description: "A test board."}}
		}
		from := f.count()
		id1, err := a.Post(ctx, "chan1", r)
		if err != nil {
			t.Fatal(err)
		}
		id2, err := a.Post(ctx, "chan1", r)
		if err != nil {
			t.Fatal(err)
		}
		calls := find(f.callsFrom(from), "POST", "/channels/chan1/messages")
		if len(calls) != 2 {
			t.Fatalf("files %v: %d posts sent, want 2", withFile, len(calls))
		}
		for _, c := range calls {
			if c.Payload["nonce"] != r.Nonce || c.Payload["enforce_nonce"] != true {
				t.Errorf("files %v: payload nonce %v enforce %v", withFile, c.Payload["nonce"], c.Payload["enforce_nonce"])
			}
			if withFile && (len(c.Files) != 1 || c.Payload["content"] != r.Content) {
				t.Errorf("files %v: %d files, content %v", withFile, len(c.Files), c.Payload["content"])
			}
		}
		if id1 == "" || id1 != id2 || calls[0].Deduped || !calls[1].Deduped {
			t.Errorf("files %v: ids %q %q, deduped %v %v: the resend must return the first message", withFile, id1, id2, calls[0].Deduped, calls[1].Deduped)
		}
	}
	// After Discord's window the nonce is forgotten: a new message.
	r := bot.Reply{Content: "late", Nonce: "n-text"}
	first, _ := a.Post(ctx, "chan1", r)
	now = now.Add(10 * time.Minute)
	if again, err := a.Post(ctx, "chan1", r); err != nil || again == first {
		t.Errorf("after the window: %q (first %q), %v", again, first, err)
	}
	// A post without a nonce sends none.
	from := f.count()
	if _, err := a.Post(ctx, "chan1", bot.Reply{Content: "plain"}); err != nil {
		t.Fatal(err)
	}
	if c := find(f.callsFrom(from), "POST", "/channels/chan1/messages"); len(c) != 1 || c[0].Payload["nonce"] != nil || c[0].Payload["enforce_nonce"] != nil {
		t.Errorf("plain post: %+v", c[0].Payload)
	}
}
