package discord

import (
	"context"
	"log/slog"
	"net/http"
	"time"

	"github.com/bwmarrin/discordgo"

	"github.com/tankbot/tankbot/bot"
	"github.com/tankbot/tankbot/bot/i18n"
	"github.com/tankbot/tankbot/bot/metrics"
)

// Discord's windows for answering an interaction, counted from receipt:
// the first response within 3 s (Options.ResponseWindow), everything else
// (edits, follow-ups) while the token lives.
const (
	firstWindow = 3 * time.Second
	tokenWindow = 15 * time.Minute
)

// responder delivers an interaction's first response: a REST callback for
// the gateway, the body of Discord's POST (or, with files, the callback)
// for the HTTP endpoint.
type responder interface {
	// files are the reply's attachments (resp.Data.Files made from
	// them), whose alt text goes in the payload (upload.go).
	respond(ctx context.Context, r *discordgo.InteractionResponse, files []bot.File) error
}

// restResponder answers through POST /interactions/{id}/{token}/callback.
type restResponder struct {
	a *Adapter
	i *discordgo.Interaction
}

func (r restResponder) respond(ctx context.Context, resp *discordgo.InteractionResponse, files []bot.File) error {
	if len(files) == 0 || resp.Data == nil {
		return r.a.s.InteractionRespond(r.i, resp, discordgo.WithContext(ctx))
	}
	richEmbeds(resp.Data.Embeds)
	endpoint := discordgo.EndpointInteractionResponse(r.i.ID, r.i.Token)
	_, err := r.a.upload(ctx, http.MethodPost, endpoint, endpoint, resp, "data", files)
	return err
}

// interaction answers one interaction from the gateway. It runs on
// discordgo's event goroutine for this event.
func (a *Adapter) interaction(i *discordgo.Interaction) {
	a.answer(i, restResponder{a: a, i: i}, time.Now(), a.stateChannel)
}

func (a *Adapter) stateChannel(id string) *discordgo.Channel {
	if a.s.State == nil || id == "" {
		return nil
	}
	ch, err := a.s.State.Channel(id)
	if err != nil {
		return nil
	}
	return ch
}

// answer runs the core on one interaction and delivers its replies: the
// same path for both transports, which differ only in first.
func (a *Adapter) answer(i *discordgo.Interaction, first responder, received time.Time, channel func(string) *discordgo.Channel) {
	core, ok := a.begin()
	if !ok {
		return
	}
	defer a.inflight.Done()
	if a.onDone != nil {
		defer a.onDone(i.ID)
	}
	// Nothing is sent once the token is dead.
	ctx, cancel := context.WithDeadline(a.ctx, received.Add(tokenWindow))
	defer cancel()
	cmd, focused := toCommand(i, channel(i.ChannelID))
	log := a.log.With("interaction", i.ID, "type", i.Type.String(), "command", cmd.Name, "custom_id", cmd.CustomID, "user", cmd.User.ID)
	s := &sender{a: a, i: i, cmd: cmd, first: first, received: received}

	if i.Type == discordgo.InteractionApplicationCommandAutocomplete {
		choices := toChoices(core.Suggest(ctx, cmd, focused))
		err := s.respond(ctx, func() *discordgo.InteractionResponse {
			return &discordgo.InteractionResponse{
				Type: discordgo.InteractionApplicationCommandAutocompleteResult,
				Data: &discordgo.InteractionResponseData{Choices: choices},
			}
		})
		if err != nil {
			log.Warn("autocomplete answer failed", "err", err)
		}
		return
	}
	if i.Type != discordgo.InteractionApplicationCommand && i.Type != discordgo.InteractionMessageComponent && i.Type != discordgo.InteractionModalSubmit {
		return
	}
	if a.replayed(ctx, s, received, log) {
		return
	}

	done := make(chan []bot.Reply, 1)
	go func() {
		if a.opts.BeforeHandle != nil {
			a.opts.BeforeHandle(ctx, i.ID)
		}
		replies := core.Handle(bot.WithInterim(ctx, s.interim), cmd)
		a.remember(ctx, i.ID, received, log)
		done <- replies
	}()
	t := time.NewTimer(max(0, a.opts.DirectWindow-time.Since(received)))
	defer t.Stop()
	var replies []bot.Reply
	select {
	case replies = <-done:
	case <-t.C:
		// The handler is slow (rendering, a busy database): acknowledge
		// now, within the 3 s, and answer by edit or follow-up later.
		s.mu.Lock()
		var err error
		if !s.deferred && !s.failed {
			err = s.deferNow(ctx) // unless a progress message did
		}
		s.mu.Unlock()
		if err != nil {
			log.Warn("defer failed", "err", err)
		}
		replies = <-done
	}
	s.send(ctx, replies, log)
	metrics.Interaction(cmd.Name, cmd.CustomID, received, s.firstAt, s.deferred, s.failed)
	log.Debug("interaction answered", "replies", len(replies), "deferred", s.deferred, "took", time.Since(received))
}

// remember records an interaction as handled once its handler has
// returned (its effects are committed), before its answer goes out. Not
// before the handler: an instance that died mid-handling would leave a
// retried delivery refused although nothing was done. Two deliveries at
// the same moment may both run; the game's sequence numbers refuse the
// second move.
func (a *Adapter) remember(ctx context.Context, id string, received time.Time, log *slog.Logger) {
	d, ok := a.st.(InteractionDeduper)
	if !ok {
		return
	}
	if _, err := d.FirstInteraction(ctx, id, received); err != nil {
		log.Warn("interaction memory unavailable; not recorded", "err", err)
	}
}

// replayed asks the fleet's store whether this interaction id was handled
// before (a signed POST replayed within Discord's 5 minutes, or a delivery
// repeated by the gateway or a load balancer) and, when it was, answers
// harmlessly without running the handler: a component is acknowledged
// with no change (type 6), a command or modal gets a private note. A store
// error is logged and the interaction handled as usual: refusing every
// interaction because the memory is unreachable would be worse than the
// rare replay the game's sequence numbers already refuse.
func (a *Adapter) replayed(ctx context.Context, s *sender, received time.Time, log *slog.Logger) bool {
	d, ok := a.st.(InteractionDeduper)
	if !ok {
		return false
	}
	seen, err := d.SeenInteraction(ctx, s.i.ID)
	if err != nil {
		log.Warn("interaction memory unavailable; handling anyway", "err", err)
		return false
	}
	if !seen {
		return false
	}
	log.Info("duplicate interaction answered without running")
	resp := &discordgo.InteractionResponse{Type: discordgo.InteractionResponseDeferredMessageUpdate}
	if !s.component() {
		resp = &discordgo.InteractionResponse{
			Type: discordgo.InteractionResponseChannelMessageWithSource,
			Data: &discordgo.InteractionResponseData{
				Content: i18n.T(s.cmd.Locale, "refuse.replayed"),
				Flags:   discordgo.MessageFlagsEphemeral,
			},
		}
	}
	if err := s.respond(ctx, func() *discordgo.InteractionResponse { return resp }); err != nil {
		log.Warn("duplicate answer failed", "err", err)
	}
	return true
}
