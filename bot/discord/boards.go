package discord

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strconv"
	"time"

	"github.com/bwmarrin/discordgo"

	"github.com/tankbot/tankbot/bot"
	"github.com/tankbot/tankbot/store"
)

// StripBoard removes the components of a board message (bot.BoardStripper)
// in one request, for the bot's board sweep, which runs off the answer
// path and reschedules itself rather than wait: a 429 comes back as
// *bot.RateLimited with Discord's retry_after and its global flag (which
// discordgo's RateLimitError does not carry), a message or channel gone or
// out of reach (404, 403) as bot.ErrMessageGone. The request still goes
// through discordgo's rate limiter bucket of the route, so its
// X-RateLimit headers are honoured like any other edit's.
func (a *Adapter) StripBoard(ctx context.Context, channelID, messageID string) error {
	status, err := a.stripRequest(ctx, discordgo.EndpointChannelMessage(channelID, messageID),
		discordgo.EndpointChannelMessage(channelID, ""), true)
	if err == nil || status == 0 || status >= 500 || status == http.StatusTooManyRequests {
		return wrapStrip(messageID, err)
	}
	if status == http.StatusNotFound || status == http.StatusForbidden {
		return wrapStrip(messageID, fmt.Errorf("%w: %w", err, bot.ErrMessageGone))
	}
	return wrapStrip(messageID, err)
}

// StripBoardVia removes the components of a board message through the
// interaction webhook that made it (bot.WebhookStripper): PATCH
// /webhooks/{application}/{token}/messages/{hookMessage}, a route Discord
// does not count against the bot token's global limit, which works while
// the token lives (15 minutes). A refusal that is not the route's rate
// limit nor Discord's failure (the token expired: 401, the webhook or
// message unknown: 404) falls back to the bot token's edit. The token is
// in the URL only: errors and logs are redacted by the adapter's handler,
// and the error returned here never quotes the URL.
// HookLifetime is how long the core may use an interaction's token (to
// strip a board through its webhook, to ask whether its answer showed):
// Discord's 15 minutes less a margin for the request itself and for
// clocks that differ.
func (a *Adapter) HookLifetime() time.Duration { return tokenWindow - time.Minute }

func (a *Adapter) StripBoardVia(ctx context.Context, channelID, messageID, token, hookMessage string) error {
	// Not through discordgo's limiter: it keeps one bucket for every
	// webhook edit, so a strip would queue behind the answers' own edits,
	// and a bucket per token would stay in its map forever. Each token
	// makes one strip, far within its own bucket; a 429 comes back as
	// bot.RateLimited all the same.
	endpoint := discordgo.EndpointWebhookMessage(a.opts.AppID, token, hookMessage)
	status, err := a.stripRequest(ctx, endpoint, "", false)
	if err == nil || status == 0 || status >= 500 || status == http.StatusTooManyRequests {
		return wrapStrip(messageID, err)
	}
	if store.IsPendingBoard(messageID) {
		// No message id to edit with the bot token: the answer was never
		// posted (404) or the token ended; nothing more can be done.
		return wrapStrip(messageID, fmt.Errorf("%w: %w", err, bot.ErrMessageGone))
	}
	a.log.Debug("strip board through its interaction webhook refused: using the bot token", "message", messageID, "status", status)
	return a.StripBoard(ctx, channelID, messageID)
}

func wrapStrip(messageID string, err error) error {
	if err == nil {
		return nil
	}
	return fmt.Errorf("strip board %s: %w", messageID, err)
}

// noBucket stands for discordgo's rate limiter bucket of a request made
// without it.
func noBucket(http.Header) error { return nil }

// stripRequest PATCHes {"components":[]} to endpoint (with the bot token
// when auth) through the rate limiter's bucket bucketKey ("" none), and returns the HTTP status
// (0: no answer) and an error for anything but 2xx: *bot.RateLimited for a
// 429. The error never quotes the URL (it may hold an interaction token).
func (a *Adapter) stripRequest(ctx context.Context, endpoint, bucketKey string, auth bool) (int, error) {
	bucket := noBucket
	if bucketKey != "" {
		bucket = a.s.Ratelimiter.LockBucket(bucketKey).Release
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodPatch, endpoint, bytes.NewReader([]byte(`{"components":[]}`)))
	if err != nil {
		_ = bucket(nil)
		return 0, fmt.Errorf("build request: %w", err)
	}
	if auth {
		req.Header.Set("Authorization", a.s.Token)
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("User-Agent", a.s.UserAgent)
	resp, err := a.s.Client.Do(req)
	if err != nil {
		_ = bucket(nil)
		if ue, ok := err.(interface{ Unwrap() error }); ok && ue.Unwrap() != nil {
			err = ue.Unwrap() // *url.Error quotes the URL
		}
		return 0, fmt.Errorf("no answer: %w", err)
	}
	defer resp.Body.Close()
	if err := bucket(resp.Header); err != nil {
		a.log.Debug("strip board: rate limit headers", "err", err)
	}
	body, _ := io.ReadAll(io.LimitReader(resp.Body, 64<<10))
	switch {
	case resp.StatusCode < 300:
		return resp.StatusCode, nil
	case resp.StatusCode == http.StatusTooManyRequests:
		var rl struct {
			RetryAfter float64 `json:"retry_after"`
			Global     bool    `json:"global"`
		}
		_ = json.Unmarshal(body, &rl)
		if rl.RetryAfter <= 0 {
			rl.RetryAfter, _ = strconv.ParseFloat(resp.Header.Get("Retry-After"), 64)
		}
		global := rl.Global || resp.Header.Get("X-RateLimit-Global") == "true"
		return resp.StatusCode, &bot.RateLimited{After: time.Duration(rl.RetryAfter * float64(time.Second)), Global: global}
	}
	return resp.StatusCode, fmt.Errorf("HTTP %d %s", resp.StatusCode, bytes.TrimSpace(body))
}

// AnswerShown reads the message hookMessage of the interaction with token
// (bot.AnswerChecker): its id when Discord has it, "" when it does not
// (404: the answer never arrived).
func (a *Adapter) AnswerShown(ctx context.Context, token, hookMessage string) (string, error) {
	m, err := a.s.WebhookMessage(a.opts.AppID, token, hookMessage, discordgo.WithContext(ctx))
	var re *discordgo.RESTError
	if errors.As(err, &re) && re.Response != nil && re.Response.StatusCode == http.StatusNotFound {
		return "", nil
	}
	if err != nil {
		var ue *url.Error // it quotes the URL, which holds the token
		if errors.As(err, &ue) {
			err = ue.Err
		}
		return "", fmt.Errorf("read the interaction's answer: %w", err)
	}
	if m == nil || m.Flags&discordgo.MessageFlagsEphemeral != 0 {
		return "", nil
	}
	return m.ID, nil
}
