package discord

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"time"

	"github.com/bwmarrin/discordgo"

	"github.com/tankbot/tankbot/bot"
	"github.com/tankbot/tankbot/bot/view"
)

// Post sends r as a new message in channelID (bot.Notifier). Only the users
// in r.Mentions are pinged.
func (a *Adapter) Post(ctx context.Context, channelID string, r bot.Reply) (string, error) {
	var id string
	op := "post message"
	if r.Nonce == "" {
		op = opPostNoNonce
	}
	err := a.withoutFilesIfRefused(ctx, r, func(r bot.Reply) error {
		return a.retry(ctx, op, func() error {
			m, err := a.postMessage(ctx, channelID, r)
			if err != nil {
				return err
			}
			id = m.ID
			return nil
		})
	})
	if err != nil {
		return "", asNotMember(err)
	}
	a.record(ctx, r, channelID, id)
	return id, nil
}

// nonceSend is a message with Discord's nonce fields, which discordgo's
// MessageSend lacks. With enforce_nonce Discord answers a nonce it saw in
// the last few minutes with the message it created then, instead of
// posting again: a resend after a crash is not a second message.
type nonceSend struct {
	*discordgo.MessageSend
	Nonce        string `json:"nonce,omitempty"`
	EnforceNonce bool   `json:"enforce_nonce,omitempty"`
}

// postMessage is ChannelMessageSendComplex with r.Nonce sent as the
// message's nonce (enforced).
func (a *Adapter) postMessage(ctx context.Context, channelID string, r bot.Reply) (*discordgo.Message, error) {
	body := nonceSend{MessageSend: messageSend(r)}
	if r.Nonce != "" {
		body.Nonce, body.EnforceNonce = r.Nonce, true
	}
	for _, e := range body.Embeds {
		if e.Type == "" {
			e.Type = discordgo.EmbedTypeRich
		}
	}
	endpoint := discordgo.EndpointChannelMessages(channelID)
	var resp []byte
	var err error
	if len(r.Files) > 0 {
		resp, err = a.upload(ctx, http.MethodPost, endpoint, endpoint, body, "", r.Files)
	} else {
		resp, err = a.s.RequestWithBucketID(http.MethodPost, endpoint, body, endpoint, discordgo.WithContext(ctx))
	}
	if err != nil {
		return nil, err
	}
	var m discordgo.Message
	if err := json.Unmarshal(resp, &m); err != nil {
		return nil, fmt.Errorf("decode message: %w", err)
	}
	return &m, nil
}

// Edit changes a channel message (bot.Notifier): its components always,
// its content, embed and attachments only when r sets them. Edits notify
// nobody, so no mention is allowed.
func (a *Adapter) Edit(ctx context.Context, channelID, messageID string, r bot.Reply) error {
	r = forDiscord(r)
	return a.retry(ctx, "edit message", func() error {
		comps := toComponents(r.Components)
		e := &discordgo.MessageEdit{ID: messageID, Channel: channelID, Components: &comps, AllowedMentions: allowedMentions(nil)}
		if r.Content != "" {
			e.Content = &r.Content
		}
		if r.Embed != nil {
			embeds := toEmbeds(r.Embed)
			e.Embeds = &embeds
		}
		if len(r.Files) > 0 {
			e.Files = toFiles(r.Files)
			e.Attachments = &[]*discordgo.MessageAttachment{}
		}
		_, err := a.editChannelMessage(ctx, e, r.Files)
		return asNotMember(err)
	})
}

// CreateThread opens a public thread (bot.Notifier). Missing permissions
// become bot.ErrNoThreads so the game is played in the channel instead.
func (a *Adapter) CreateThread(ctx context.Context, channelID, messageID, name string) (string, error) {
	data := &discordgo.ThreadStart{Name: view.Clip(name, 100), AutoArchiveDuration: 10080, Type: discordgo.ChannelTypeGuildPublicThread}
	var id string
	err := a.retry(ctx, "create thread", func() error {
		var ch *discordgo.Channel
		var err error
		if messageID != "" {
			ch, err = a.s.MessageThreadStartComplex(channelID, messageID, data, discordgo.WithContext(ctx))
		} else {
			ch, err = a.s.ThreadStartComplex(channelID, data, discordgo.WithContext(ctx))
		}
		if err != nil {
			return err
		}
		id = ch.ID
		return nil
	})
	if err != nil {
		if forbidden(err) {
			return "", fmt.Errorf("%w: %v", bot.ErrNoThreads, err)
		}
		return "", err
	}
	return id, nil
}

func forbidden(err error) bool {
	var re *discordgo.RESTError
	if !errors.As(err, &re) {
		return false
	}
	if re.Message != nil {
		switch re.Message.Code {
		case discordgo.ErrCodeMissingPermissions, discordgo.ErrCodeMissingAccess:
			return true
		}
	}
	return re.Response != nil && re.Response.StatusCode == http.StatusForbidden
}

// serverError is a 5xx answer: worth retrying. discordgo retries a 502
// itself (MaxRestRetries) and then reports it as a plain error.
func serverError(err error) bool {
	var re *discordgo.RESTError
	if errors.As(err, &re) {
		return re.Response != nil && re.Response.StatusCode >= 500
	}
	return err != nil && strings.HasPrefix(err.Error(), "Exceeded Max retries HTTP 5")
}

// dropped is a request that got no answer: the connection failed or
// timed out. Worth another try when repeating it is harmless: an edit or a
// read; a channel post (its nonce makes Discord drop a repeat); the
// interaction's callback (a repeat of one that landed is refused as
// already acknowledged, which counts as success). Not a follow-up, which
// Discord would create twice; its board goes by the outbox's fallback.
func dropped(err error) bool {
	var ue *url.Error
	return errors.As(err, &ue)
}

// Creations retry does not repeat after a dropped connection: a follow-up,
// a channel post without a nonce.
const (
	opFollowUp    = "follow-up"
	opPostNoNonce = "post message without nonce"
)

// rateLimited returns how long Discord asked us to wait after a 429.
func rateLimited(err error) (time.Duration, bool) {
	var rl *discordgo.RateLimitError
	if errors.As(err, &rl) && rl.RateLimit != nil && rl.TooManyRequests != nil {
		return rl.RetryAfter, true
	}
	return 0, false
}

// uploadRefused is Discord refusing a message for its attachments: 413
// (payload too large, code 40005) or 400 on a message that carried files.
func uploadRefused(err error) bool {
	var re *discordgo.RESTError
	if !errors.As(err, &re) {
		return false
	}
	if re.Message != nil && re.Message.Code == discordgo.ErrCodeRequestEntityTooLarge {
		return true
	}
	return re.Response != nil && (re.Response.StatusCode == http.StatusRequestEntityTooLarge || re.Response.StatusCode == http.StatusBadRequest)
}

// withoutFilesIfRefused sends r with send; when Discord refuses its
// attachments it sends r once more without them, with its fallback text,
// so the reader gets an answer (the move is saved either way).
func (a *Adapter) withoutFilesIfRefused(ctx context.Context, r bot.Reply, send func(bot.Reply) error) error {
	err := send(r)
	if err == nil || len(r.Files) == 0 || !uploadRefused(err) {
		return err
	}
	a.log.Warn("discord refused the attachments, sending without them", "files", len(r.Files), "err", err)
	if err2 := send(WithoutFiles(r)); err2 != nil {
		return fmt.Errorf("%w (and without files: %v)", err, err2)
	}
	return nil
}

// Retry policy: at most maxAttempts tries of one request; a 5xx waits
// retryDelays, a 429 waits what Discord asks but never beyond maxRateWait
// nor past ctx's deadline (an interaction's window): giving up early beats
// answering late.
var (
	retryDelays = []time.Duration{500 * time.Millisecond, 2 * time.Second}
	maxAttempts = 3
	maxRateWait = 10 * time.Second
	// The interaction's first response has 3 s: more tries, sooner (at
	// 20 % failures, 0.03 % of answers lost instead of 4 % when a 2 s
	// pause no longer fits in the window).
	respondAttempts = 5
	respondDelays   = []time.Duration{100 * time.Millisecond, 250 * time.Millisecond, 500 * time.Millisecond}
)

// retry runs f, again after Discord's server errors and rate limits,
// pausing through the injected sleep. f must build its request afresh:
// file readers are spent.
func (a *Adapter) retry(ctx context.Context, what string, f func() error) error {
	return a.retryUpTo(ctx, what, maxAttempts, retryDelays, f)
}

// retryUpTo is retry with up to attempts tries, a server error or dropped
// connection waiting delays[k] after the k+1th (the last one repeated).
func (a *Adapter) retryUpTo(ctx context.Context, what string, attempts int, delays []time.Duration, f func() error) error {
	for attempt := 1; ; attempt++ {
		err := f()
		if err == nil {
			return nil
		}
		d, limited := rateLimited(err)
		if attempt == attempts {
			if limited {
				// The outbox waits what Discord asked (every post, when
				// the limit is global) instead of its own backoff.
				return fmt.Errorf("%s: %d attempts: %w: %w", what, attempt, &bot.RateLimited{After: d, Global: a.globalLimited()}, err)
			}
			return fmt.Errorf("%s: %d attempts: %w", what, attempt, err)
		}
		var wait time.Duration
		if limited {
			wait = d
			if wait > maxRateWait {
				return fmt.Errorf("%s: rate limited for %v: %w: %w", what, d, &bot.RateLimited{After: d, Global: a.globalLimited()}, err)
			}
		} else if serverError(err) || dropped(err) && what != opFollowUp && what != opPostNoNonce {
			wait = delays[min(attempt-1, len(delays)-1)]
		} else {
			return fmt.Errorf("%s: %w", what, err)
		}
		if dl, ok := ctx.Deadline(); ok && time.Now().Add(wait).After(dl) {
			return fmt.Errorf("%s: no time left to retry after %v: %w", what, wait, err)
		}
		a.log.Warn("discord refused, retrying", "op", what, "attempt", attempt, "wait", wait, "err", err)
		if err := a.opts.Sleep(ctx, wait); err != nil {
			return fmt.Errorf("%s: %w", what, err)
		}
	}
}

func sleepCtx(ctx context.Context, d time.Duration) error {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-t.C:
		return nil
	}
}

// RenameThread renames a thread the bot created (bot.ThreadRenamer): a
// game's thread whose number turned out other than its name said.
func (a *Adapter) RenameThread(ctx context.Context, threadID, name string) error {
	return a.retry(ctx, "rename thread", func() error {
		_, err := a.s.ChannelEdit(threadID, &discordgo.ChannelEdit{Name: view.Clip(name, 100)}, discordgo.WithContext(ctx))
		return err
	})
}
