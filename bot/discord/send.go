package discord

import (
	"context"
	"errors"
	"log/slog"

	"github.com/bwmarrin/discordgo"

	"github.com/tankbot/tankbot/bot"
)

// sender delivers one interaction's replies. The first reply meant for the
// interaction becomes its response (or fills the deferred one); later ones
// are follow-ups or edits; replies with a ChannelID are channel messages.
type sender struct {
	a        *Adapter
	i        *discordgo.Interaction
	cmd      bot.Command
	deferred bool // acknowledged with type 5 (slash, modal) or 6 (component)
	answered bool // the response (or the deferred one) carries a reply
}

func (s *sender) component() bool { return s.i.Type == discordgo.InteractionMessageComponent }

func (s *sender) send(ctx context.Context, replies []bot.Reply, log *slog.Logger) {
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
		} else {
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
	if s.component() {
		return
	}
	content := "✅"
	if where != "" && where != s.cmd.ChannelID {
		content = "➡️ <#" + where + ">"
	}
	err := s.a.retry(ctx, "edit response", func() error {
		_, err := s.a.s.InteractionResponseEdit(s.i, &discordgo.WebhookEdit{Content: &content, AllowedMentions: allowedMentions(nil)}, discordgo.WithContext(ctx))
		return err
	})
	if err != nil {
		log.Warn("acknowledge edit failed", "err", err)
	}
}

// respond sends the interaction response once, retrying server errors; a
// retry that finds the interaction acknowledged means the first try landed.
// build is called per attempt: file readers are spent by a failed one.
func (s *sender) respond(ctx context.Context, build func() *discordgo.InteractionResponse) error {
	err := s.a.retry(ctx, "respond", func() error {
		return s.a.s.InteractionRespond(s.i, build(), discordgo.WithContext(ctx))
	})
	var re *discordgo.RESTError
	if errors.As(err, &re) && re.Message != nil && re.Message.Code == discordgo.ErrCodeInteractionHasAlreadyBeenAcknowledged {
		return nil
	}
	return err
}

// reply sends one reply meant for the interaction.
func (s *sender) reply(ctx context.Context, r bot.Reply) error {
	switch {
	case r.Modal != nil:
		if s.deferred || s.answered {
			return errors.New("modal after the interaction was answered")
		}
		s.answered = true
		return s.respond(ctx, func() *discordgo.InteractionResponse {
			return &discordgo.InteractionResponse{Type: discordgo.InteractionResponseModal, Data: toModal(r.Modal)}
		})

	case !s.deferred && !s.answered:
		s.answered = true
		typ := discordgo.InteractionResponseChannelMessageWithSource
		if r.Update && s.component() {
			typ = discordgo.InteractionResponseUpdateMessage
		}
		err := s.respond(ctx, func() *discordgo.InteractionResponse {
			return &discordgo.InteractionResponse{Type: typ, Data: responseData(r)}
		})
		if err != nil {
			return err
		}
		if r.Board && !r.Ephemeral {
			if typ == discordgo.InteractionResponseUpdateMessage {
				s.a.recordBoard(ctx, r, s.cmd.ChannelID, s.cmd.MessageID)
			} else if m, err := s.a.s.InteractionResponse(s.i, discordgo.WithContext(ctx)); err == nil {
				s.a.recordBoard(ctx, r, s.cmd.ChannelID, m.ID)
			} else {
				return err
			}
		}
		return nil

	case s.deferred && !s.answered:
		s.answered = true
		// After type 6 the original is the component's message; after
		// type 5 it is the public "thinking…" placeholder.
		// Filling the placeholder is an edit, and edits notify nobody: a
		// reply that pings goes out as a follow-up instead.
		pings := len(r.Mentions) > 0 && !r.Update
		if (s.component() && r.Update) || (!s.component() && !r.Ephemeral && !pings) {
			return s.editOriginal(ctx, r)
		}
		if err := s.followup(ctx, r); err != nil {
			return err
		}
		if !s.component() {
			// An ephemeral answer (or a ping) cannot replace a public
			// placeholder.
			return s.a.s.InteractionResponseDelete(s.i, discordgo.WithContext(ctx))
		}
		return nil

	case r.Update && s.cmd.MessageID != "":
		var m *discordgo.Message
		err := s.a.retry(ctx, "edit message", func() error {
			var err error
			m, err = s.a.s.ChannelMessageEditComplex(messageEdit(s.cmd.ChannelID, s.cmd.MessageID, r), discordgo.WithContext(ctx))
			return err
		})
		if err == nil {
			s.a.recordBoard(ctx, r, s.cmd.ChannelID, m.ID)
		}
		return err
	}
	return s.followup(ctx, r)
}

func (s *sender) editOriginal(ctx context.Context, r bot.Reply) error {
	var m *discordgo.Message
	err := s.a.retry(ctx, "edit response", func() error {
		var err error
		m, err = s.a.s.InteractionResponseEdit(s.i, webhookEdit(r), discordgo.WithContext(ctx))
		return err
	})
	if err == nil && m != nil {
		s.a.recordBoard(ctx, r, s.cmd.ChannelID, m.ID)
	}
	return err
}

func (s *sender) followup(ctx context.Context, r bot.Reply) error {
	var m *discordgo.Message
	err := s.a.retry(ctx, "follow-up", func() error {
		var err error
		m, err = s.a.s.FollowupMessageCreate(s.i, true, webhookParams(r), discordgo.WithContext(ctx))
		return err
	})
	if err == nil && m != nil {
		s.a.recordBoard(ctx, r, s.cmd.ChannelID, m.ID)
	}
	return err
}
