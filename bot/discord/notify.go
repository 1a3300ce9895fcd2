package discord

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"time"

	"github.com/bwmarrin/discordgo"

	"github.com/tankbot/tankbot/bot"
)

// Post sends r as a new message in channelID (bot.Notifier). Only the users
// in r.Mentions are pinged.
func (a *Adapter) Post(ctx context.Context, channelID string, r bot.Reply) (string, error) {
	var id string
	err := a.retry(ctx, "post message", func() error {
		m, err := a.s.ChannelMessageSendComplex(channelID, messageSend(r), discordgo.WithContext(ctx))
		if err != nil {
			return err
		}
		id = m.ID
		return nil
	})
	if err != nil {
		return "", err
	}
	a.recordBoard(ctx, r, channelID, id)
	return id, nil
}

// Edit changes a channel message (bot.Notifier): its components always,
// its content, embed and attachments only when r sets them. Edits notify
// nobody, so no mention is allowed.
func (a *Adapter) Edit(ctx context.Context, channelID, messageID string, r bot.Reply) error {
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
		_, err := a.s.ChannelMessageEditComplex(e, discordgo.WithContext(ctx))
		return err
	})
}

// CreateThread opens a public thread (bot.Notifier). Missing permissions
// become bot.ErrNoThreads so the game is played in the channel instead.
func (a *Adapter) CreateThread(ctx context.Context, channelID, messageID, name string) (string, error) {
	data := &discordgo.ThreadStart{Name: clip(name, 100), AutoArchiveDuration: 10080, Type: discordgo.ChannelTypeGuildPublicThread}
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

// serverError is a 5xx answer: worth retrying. (discordgo itself waits out
// 429s and retries 502s.)
func serverError(err error) bool {
	var re *discordgo.RESTError
	return errors.As(err, &re) && re.Response != nil && re.Response.StatusCode >= 500
}

// retryDelays are the pauses before the second and third attempts.
var retryDelays = []time.Duration{500 * time.Millisecond, 2 * time.Second}

// retry runs f, again after Discord's server errors, pausing through the
// injected sleep. f must build its request afresh: file readers are spent.
func (a *Adapter) retry(ctx context.Context, what string, f func() error) error {
	for attempt := 0; ; attempt++ {
		err := f()
		if err == nil {
			return nil
		}
		if !serverError(err) || attempt == len(retryDelays) {
			return fmt.Errorf("%s: %w", what, err)
		}
		a.log.Warn("discord server error, retrying", "op", what, "attempt", attempt+1, "err", err)
		if err := a.opts.Sleep(ctx, retryDelays[attempt]); err != nil {
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
