package discord

import (
	"context"
	"errors"
	"log/slog"
	"sync"
	"time"

	"github.com/bwmarrin/discordgo"

	"github.com/tankbot/tankbot/bot"
)

// readAttempts bounds the tries to read the id of a delivered answer: with
// retryDelays, about 8.5 s, within bot's 30 s fallback delay.
const readAttempts = 6

// sender delivers one interaction's replies. The first reply meant for the
// interaction becomes its response (or fills the deferred one); later ones
// are follow-ups or edits; replies with a ChannelID are channel messages.
type sender struct {
	a        *Adapter
	i        *discordgo.Interaction
	cmd      bot.Command
	first    responder
	received time.Time
	deferred bool // acknowledged with type 5 (slash, modal) or 6 (component)
	answered bool // the response (or the deferred one) carries a reply
	failed   bool // the first response never reached Discord: the token is useless

	firstAt time.Time // when Discord accepted the first response (metrics)

	// mu orders the handler's progress messages (interim) with the
	// deferral the answering goroutine may send at the same time.
	mu sync.Mutex
	// progress is the id of a component's private progress follow-up
	// (interim), which the answer then replaces.
	progress string
}

// interim shows or updates the handler's private progress message (see
// bot.Interim) through the interaction's token, which costs none of the
// bot's own rate limit. A command's progress fills the deferral's
// private placeholder (an edit); a component's, deferred with type 6 so
// that its message stays as it is, is a private follow-up, created once
// and then edited. Neither pings: an ephemeral message never notifies,
// and mentions are disallowed.
func (s *sender) interim(ctx context.Context, content string) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.failed || s.answered {
		return errors.New("interaction answered or lost; no progress shown")
	}
	if !s.deferred {
		if err := s.deferNow(ctx); err != nil {
			return err
		}
	}
	if !s.component() {
		return s.note(ctx, content)
	}
	if s.progress != "" {
		return s.a.retry(ctx, "edit progress", func() error {
			_, err := s.a.s.FollowupMessageEdit(s.i, s.progress, &discordgo.WebhookEdit{Content: &content, AllowedMentions: allowedMentions(nil)}, discordgo.WithContext(ctx))
			return err
		})
	}
	return s.a.retry(ctx, "progress", func() error {
		m, err := s.a.s.FollowupMessageCreate(s.i, true, &discordgo.WebhookParams{Content: content, Flags: discordgo.MessageFlagsEphemeral, AllowedMentions: allowedMentions(nil)}, discordgo.WithContext(ctx))
		if err == nil {
			s.progress = m.ID
		}
		return err
	})
}

func (s *sender) component() bool { return s.i.Type == discordgo.InteractionMessageComponent }

// deferNow acknowledges the interaction without an answer: type 6 keeps
// a component's message as it is; type 5 shows "thinking…", with the
// ephemeral flag because a placeholder cannot change its visibility and
// filling it (the first follow-up or an edit) notifies nobody. A public
// answer then goes as a later follow-up, a new message (reply).
func (s *sender) deferNow(ctx context.Context) error {
	resp := &discordgo.InteractionResponse{
		Type: discordgo.InteractionResponseDeferredChannelMessageWithSource,
		Data: &discordgo.InteractionResponseData{Flags: discordgo.MessageFlagsEphemeral},
	}
	if s.component() {
		resp = &discordgo.InteractionResponse{Type: discordgo.InteractionResponseDeferredMessageUpdate}
	}
	err := s.respond(ctx, func() *discordgo.InteractionResponse { return resp })
	if err == nil {
		s.deferred = true
	}
	return err
}

func (s *sender) send(ctx context.Context, replies []bot.Reply, log *slog.Logger) {
	if s.cmd.BotAbsent {
		// Where the bot is not a member its own posts are refused
		// (places.go): what the core meant for a channel goes through
		// this interaction, to the conversation the user is in.
		for k := range replies {
			replies[k].ChannelID = ""
		}
	}
	// The interaction's own answer goes first: it has a deadline, posts
	// to other channels do not.
	first := -1
	for k, r := range replies {
		if r.ChannelID == "" {
			first = k
			break
		}
	}
	if first < 0 {
		s.ackOnly(ctx, replies, log)
		return
	}
	if err := s.reply(ctx, replies[first]); err != nil {
		log.Warn("reply failed", "err", err)
	}
	for k, r := range replies {
		if k == first {
			continue
		}
		var err error
		if r.ChannelID != "" {
			_, err = s.a.Post(ctx, r.ChannelID, r)
		} else if !s.failed {
			err = s.reply(ctx, r)
		}
		if err != nil {
			log.Warn("reply failed", "err", err)
		}
	}
}

// ackOnly answers an interaction whose replies all go to channels (or
// that has none): a component is acknowledged silently, a command gets an
// ephemeral pointer to where the message went.
func (s *sender) ackOnly(ctx context.Context, replies []bot.Reply, log *slog.Logger) {
	if s.component() {
		if !s.deferred {
			if err := s.respond(ctx, func() *discordgo.InteractionResponse {
				return &discordgo.InteractionResponse{Type: discordgo.InteractionResponseDeferredMessageUpdate}
			}); err != nil {
				log.Warn("acknowledge failed", "err", err)
			}
		}
	} else if !s.deferred {
		err := s.respond(ctx, func() *discordgo.InteractionResponse {
			return &discordgo.InteractionResponse{
				Type: discordgo.InteractionResponseDeferredChannelMessageWithSource,
				Data: &discordgo.InteractionResponseData{Flags: discordgo.MessageFlagsEphemeral},
			}
		})
		if err != nil {
			log.Warn("acknowledge failed", "err", err)
		}
	}
	var where string
	for _, r := range replies {
		if _, err := s.a.Post(ctx, r.ChannelID, r); err != nil {
			log.Warn("post failed", "channel", r.ChannelID, "err", err)
		} else if where == "" {
			where = r.ChannelID
		}
	}
	if s.component() || s.failed {
		return
	}
	content := "✅"
	if where != "" && where != s.cmd.ChannelID {
		content = "➡️ <#" + where + ">"
	}
	if err := s.note(ctx, content); err != nil {
		log.Warn("acknowledge edit failed", "err", err)
	}
}

// respond sends the interaction's first response once, retrying server
// errors and rate limits only while Discord's 3-second window lasts: an
// answer after it would be refused anyway. A retry that finds the
// interaction acknowledged means the first try landed. build is called per
// attempt: file readers are spent by a failed one.
func (s *sender) respond(ctx context.Context, build func() *discordgo.InteractionResponse, files ...bot.File) error {
	ctx, cancel := context.WithDeadline(ctx, s.received.Add(s.a.opts.ResponseWindow))
	defer cancel()
	err := s.a.retryUpTo(ctx, "respond", respondAttempts, respondDelays, func() error {
		return s.first.respond(ctx, build(), files)
	})
	var re *discordgo.RESTError
	if errors.As(err, &re) && re.Message != nil && re.Message.Code == discordgo.ErrCodeInteractionHasAlreadyBeenAcknowledged {
		return nil
	}
	if err != nil {
		s.failed = true
	} else if s.firstAt.IsZero() {
		s.firstAt = time.Now()
	}
	return err
}

// reply sends one reply meant for the interaction.
func (s *sender) reply(ctx context.Context, r bot.Reply) error {
	if s.failed {
		return errors.New("interaction not acknowledged in time; reply dropped")
	}
	if r.Modal != nil {
		if s.deferred || s.answered {
			return errors.New("modal after the interaction was answered")
		}
		s.answered = true
		return s.respond(ctx, func() *discordgo.InteractionResponse {
			return &discordgo.InteractionResponse{Type: discordgo.InteractionResponseModal, Data: modalData(r)}
		})
	}
	if !s.deferred && !s.answered && len(r.Files) > 0 && time.Since(s.received) > s.a.opts.ResponseWindow/2 {
		// An upload started this late (past 1.5 s) may not reach Discord
		// within its 3 s: acknowledge now and send the message as a
		// follow-up; the second half of the window is for the upload.
		if err := s.deferNow(ctx); err != nil {
			return err
		}
	}
	switch {
	case !s.deferred && !s.answered:
		s.answered = true
		typ := discordgo.InteractionResponseChannelMessageWithSource
		if r.Update && s.component() {
			typ = discordgo.InteractionResponseUpdateMessage
		}
		if typ == discordgo.InteractionResponseChannelMessageWithSource {
			// Known before it is sent: a crash before its id is
			// recorded still leaves it to be stripped when superseded.
			s.a.recordPending(ctx, r, s.hook("@original"))
		}
		err := s.a.withoutFilesIfRefused(ctx, r, func(r bot.Reply) error {
			return s.respond(ctx, func() *discordgo.InteractionResponse {
				return &discordgo.InteractionResponse{Type: typ, Data: responseData(r)}
			}, r.Files...)
		})
		if err != nil {
			return err
		}
		if r.Tracked() {
			if typ == discordgo.InteractionResponseUpdateMessage {
				s.a.recordVia(ctx, r, s.cmd.ChannelID, s.cmd.MessageID, s.hook("@original"))
			} else {
				// The id is what records the answer as delivered (and
				// cancels its fallback ping): worth more tries than a
				// send, well within the fallback's delay (the answer is
				// already shown; without the id it would show twice).
				var m *discordgo.Message
				err := s.a.retryUpTo(ctx, "read response", readAttempts, retryDelays, func() error {
					var err error
					m, err = s.a.s.InteractionResponse(s.i, discordgo.WithContext(ctx))
					return err
				})
				if err != nil {
					return err
				}
				s.a.recordVia(ctx, r, s.cmd.ChannelID, m.ID, s.hook("@original"))
			}
		}
		return nil

	case s.deferred && !s.answered:
		s.answered = true
		// After type 6 @original is the component's message and every
		// follow-up is a new message. After type 5 @original is the
		// ephemeral placeholder and the first follow-up would only fill
		// it (an edit: private, pinging nobody): a private answer fills
		// it; a public one fills it with a short private note first, so
		// that the answer itself is a new public message, which pings.
		if s.component() {
			if r.Update {
				return s.editOriginal(ctx, r)
			}
			if s.progress != "" && r.Ephemeral {
				return s.editProgress(ctx, r)
			}
			return s.followup(ctx, r)
		}
		if r.Ephemeral {
			return s.editOriginal(ctx, r)
		}
		if err := s.note(ctx, "✅"); err != nil {
			// A follow-up now would fill the private placeholder and
			// hide the answer: leave it to the fallback (the outbox).
			return err
		}
		return s.followup(ctx, r)

	case r.Update && s.cmd.MessageID != "":
		var m *discordgo.Message
		err := s.a.withoutFilesIfRefused(ctx, r, func(r bot.Reply) error {
			return s.a.retry(ctx, "edit message", func() error {
				var err error
				m, err = s.a.editChannelMessage(ctx, messageEdit(s.cmd.ChannelID, s.cmd.MessageID, r), r.Files)
				return err
			})
		})
		if err == nil {
			s.a.record(ctx, r, s.cmd.ChannelID, m.ID)
		}
		return err
	}
	return s.followup(ctx, r)
}

// note fills the deferred placeholder with a private word.
func (s *sender) note(ctx context.Context, content string) error {
	return s.a.retry(ctx, "edit response", func() error {
		_, err := s.a.s.InteractionResponseEdit(s.i, &discordgo.WebhookEdit{Content: &content, AllowedMentions: allowedMentions(nil)}, discordgo.WithContext(ctx))
		return err
	})
}

func (s *sender) editOriginal(ctx context.Context, r bot.Reply) error {
	var m *discordgo.Message
	err := s.a.withoutFilesIfRefused(ctx, r, func(r bot.Reply) error {
		return s.a.retry(ctx, "edit response", func() error {
			var err error
			m, err = s.a.editWebhookMessage(ctx, s.i, "@original", r)
			return err
		})
	})
	if err == nil && m != nil {
		s.a.recordVia(ctx, r, s.cmd.ChannelID, m.ID, s.hook("@original"))
	}
	return err
}

// editProgress replaces a component's private progress message with the
// handler's private answer (files included).
func (s *sender) editProgress(ctx context.Context, r bot.Reply) error {
	return s.a.withoutFilesIfRefused(ctx, r, func(r bot.Reply) error {
		return s.a.retry(ctx, "edit progress", func() error {
			_, err := s.a.editWebhookMessage(ctx, s.i, s.progress, r)
			return err
		})
	})
}

func (s *sender) followup(ctx context.Context, r bot.Reply) error {
	var m *discordgo.Message
	err := s.a.withoutFilesIfRefused(ctx, r, func(r bot.Reply) error {
		return s.a.retry(ctx, opFollowUp, func() error {
			var err error
			m, err = s.a.createFollowup(ctx, s.i, r)
			return err
		})
	})
	if err == nil && m != nil && !r.Ephemeral && m.Flags&discordgo.MessageFlagsEphemeral != 0 {
		// Discord made it private (it filled a placeholder): not
		// delivered as a public answer, so its fallback still goes.
		return errors.New("public follow-up became ephemeral")
	}
	if err == nil && m != nil {
		s.a.recordVia(ctx, r, s.cmd.ChannelID, m.ID, s.hook(m.ID))
	}
	return err
}

// hook is this interaction's webhook for message ("@original" or a
// follow-up's id), stamped with the interaction's receipt on the adapter's
// clock: its token edits the message for 15 minutes from then.
func (s *sender) hook(message string) bot.Hook {
	return bot.Hook{Token: s.i.Token, Message: message, Issued: s.a.now().Add(-time.Since(s.received))}
}
