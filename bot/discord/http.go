package discord

import (
	"bytes"
	"context"
	"crypto/ed25519"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strconv"
	"time"

	"github.com/bwmarrin/discordgo"

	"github.com/tankbot/tankbot/bot"
)

// HTTP endpoint limits: Discord's interaction payloads are a few KB (a
// command with resolved users, a component on a message with embeds), so
// 1 MiB is generous; a signature older than maxSkew is a replay.
const (
	maxInteractionBody = 1 << 20
	maxSkew            = 5 * time.Minute
)

// LimitConcurrent serves at most n requests at once through next; one
// more is answered 503 with Retry-After at once rather than queued, so a
// flood holds neither memory nor database connections and Discord's
// genuine interactions fail fast instead of past their 3 s.
func LimitConcurrent(next http.Handler, n int) http.Handler {
	slots := make(chan struct{}, max(1, n))
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		select {
		case slots <- struct{}{}:
			defer func() { <-slots }()
			next.ServeHTTP(w, r)
		default:
			w.Header().Set("Retry-After", "1")
			http.Error(w, "too many requests at once", http.StatusServiceUnavailable)
		}
	})
}

// ParsePublicKey reads the application's public key as shown in the
// Developer Portal (General Information → Public Key, 64 hex digits).
func ParsePublicKey(s string) (ed25519.PublicKey, error) {
	b, err := hex.DecodeString(s)
	if err != nil || len(b) != ed25519.PublicKeySize {
		return nil, errors.New("public key: want the 64 hex digits of General Information → Public Key")
	}
	return ed25519.PublicKey(b), nil
}

// Handler serves Discord's Interactions Endpoint URL: it checks each
// request's Ed25519 signature against key (401 when wrong or stale),
// answers PING, and runs every other interaction through the same path as
// the gateway. The first answer is the response body, except one with
// files: Discord fails a multipart body above about 150 KB (a board with
// its record and replay is larger), so that one goes through the callback
// endpoint, which takes files for HTTP interactions too, and the POST is
// answered 202. A handler slower than the direct window is deferred in the
// body and completed over REST. now is the clock for the timestamp check
// (nil: time.Now).
func (a *Adapter) Handler(key ed25519.PublicKey, now func() time.Time) http.Handler {
	if now == nil {
		now = time.Now
	}
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		received := time.Now()
		if r.Method != http.MethodPost {
			w.Header().Set("Allow", http.MethodPost)
			http.Error(w, "POST only", http.StatusMethodNotAllowed)
			return
		}
		body, err := io.ReadAll(http.MaxBytesReader(w, r.Body, maxInteractionBody))
		if err != nil {
			var mbe *http.MaxBytesError
			if errors.As(err, &mbe) {
				http.Error(w, "body too large", http.StatusRequestEntityTooLarge)
				return
			}
			http.Error(w, "cannot read body", http.StatusBadRequest)
			return
		}
		if err := verify(key, r.Header, body, now()); err != nil {
			a.log.Warn("interaction refused", "err", err, "remote", r.RemoteAddr)
			http.Error(w, "invalid request signature", http.StatusUnauthorized)
			return
		}
		var i discordgo.Interaction
		if err := json.Unmarshal(body, &i); err != nil {
			http.Error(w, "bad interaction", http.StatusBadRequest)
			return
		}
		if i.Type == discordgo.InteractionPing {
			writeResponse(w, &discordgo.InteractionResponse{Type: discordgo.InteractionResponsePong})
			return
		}
		// The payload carries the channel (with its type and parent), which
		// is how a thread is known without the gateway's state.
		var extra struct {
			Channel *discordgo.Channel `json:"channel"`
		}
		_ = json.Unmarshal(body, &extra)
		hr := &httpResponder{rest: restResponder{a: a, i: &i}, out: make(chan *discordgo.InteractionResponse), written: make(chan error, 1), done: make(chan struct{})}
		go func() {
			defer close(hr.done)
			a.answer(&i, hr, received, func(string) *discordgo.Channel { return extra.Channel })
		}()
		select {
		case resp := <-hr.out:
			if resp == nil {
				// Answered through the callback endpoint.
				w.WriteHeader(http.StatusAccepted)
				hr.written <- nil
				break
			}
			hr.written <- writeResponse(w, resp)
		case <-r.Context().Done():
			// Discord gave up on us; answer's respond times out by itself.
		case <-hr.done:
			// The adapter is closing, or the interaction is of a kind the
			// bot does not answer.
			http.Error(w, "not answered", http.StatusServiceUnavailable)
		}
	})
}

// httpResponder hands the first response to the waiting POST handler: in
// the body, or (nil) as a 202 after a callback carrying files.
type httpResponder struct {
	rest    restResponder
	out     chan *discordgo.InteractionResponse // taken by the handler
	written chan error                          // the handler's write result
	done    chan struct{}                       // closed when answer returns
	called  bool                                // the callback endpoint answered
}

func (h *httpResponder) respond(ctx context.Context, resp *discordgo.InteractionResponse, files []bot.File) error {
	if resp.Data != nil && len(resp.Data.Files) > 0 || h.called {
		// A retry after a callback that failed stays on the callback.
		h.called = true
		err := h.rest.respond(ctx, resp, files)
		var re *discordgo.RESTError
		landed := errors.As(err, &re) && re.Message != nil && re.Message.Code == discordgo.ErrCodeInteractionHasAlreadyBeenAcknowledged
		if err != nil && !landed {
			return err
		}
		select {
		case h.out <- nil:
			<-h.written
		case <-ctx.Done():
		}
		return err
	}
	select {
	case h.out <- resp:
		return <-h.written
	case <-ctx.Done():
		return fmt.Errorf("interaction response not taken: %w", ctx.Err())
	}
}

// verify checks Discord's signature: Ed25519 over timestamp + body.
func verify(key ed25519.PublicKey, h http.Header, body []byte, now time.Time) error {
	sig, err := hex.DecodeString(h.Get("X-Signature-Ed25519"))
	if err != nil || len(sig) != ed25519.SignatureSize {
		return errors.New("missing or malformed X-Signature-Ed25519")
	}
	ts := h.Get("X-Signature-Timestamp")
	sec, err := strconv.ParseInt(ts, 10, 64)
	if err != nil {
		return errors.New("missing or malformed X-Signature-Timestamp")
	}
	if d := now.Sub(time.Unix(sec, 0)); d > maxSkew || d < -maxSkew {
		return fmt.Errorf("stale timestamp (%v off)", d.Round(time.Second))
	}
	msg := make([]byte, 0, len(ts)+len(body))
	msg = append(append(msg, ts...), body...)
	if !ed25519.Verify(key, msg, sig) {
		return errors.New("bad signature")
	}
	return nil
}

func writeResponse(w http.ResponseWriter, resp *discordgo.InteractionResponse) error {
	var b bytes.Buffer
	if err := json.NewEncoder(&b).Encode(resp); err != nil {
		http.Error(w, "encode response", http.StatusInternalServerError)
		return err
	}
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Content-Length", strconv.Itoa(b.Len()))
	_, err := w.Write(b.Bytes())
	// Out now, not when the handler returns: the REST calls that follow
	// (edits of the deferred message) must not overtake it.
	if f, ok := w.(http.Flusher); ok && err == nil {
		f.Flush()
	}
	return err
}
