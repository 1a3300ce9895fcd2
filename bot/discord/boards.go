package discord

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"strconv"
	"time"

	"github.com/bwmarrin/discordgo"

	"github.com/tankbot/tankbot/bot"
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
	endpoint := discordgo.EndpointChannelMessage(channelID, messageID)
	bucket := a.s.Ratelimiter.LockBucket(discordgo.EndpointChannelMessage(channelID, ""))
	req, err := http.NewRequestWithContext(ctx, http.MethodPatch, endpoint, bytes.NewReader([]byte(`{"components":[]}`)))
	if err != nil {
		bucket.Release(nil)
		return fmt.Errorf("strip board: %w", err)
	}
	req.Header.Set("Authorization", a.s.Token)
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("User-Agent", a.s.UserAgent)
	resp, err := a.s.Client.Do(req)
	if err != nil {
		bucket.Release(nil)
		return fmt.Errorf("strip board: %w", err)
	}
	defer resp.Body.Close()
	if err := bucket.Release(resp.Header); err != nil {
		a.log.Debug("strip board: rate limit headers", "err", err)
	}
	body, _ := io.ReadAll(io.LimitReader(resp.Body, 64<<10))
	switch {
	case resp.StatusCode < 300:
		return nil
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
		return fmt.Errorf("strip board %s: %w", messageID, &bot.RateLimited{After: time.Duration(rl.RetryAfter * float64(time.Second)), Global: global})
	case resp.StatusCode == http.StatusNotFound || resp.StatusCode == http.StatusForbidden:
		return fmt.Errorf("strip board %s: HTTP %d %s: %w", messageID, resp.StatusCode, bytes.TrimSpace(body), bot.ErrMessageGone)
	}
	return fmt.Errorf("strip board %s: HTTP %d %s", messageID, resp.StatusCode, bytes.TrimSpace(body))
}
