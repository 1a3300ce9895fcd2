package discord

import (
	"time"

	"github.com/bwmarrin/discordgo"

	"github.com/tankbot/tankbot/bot"
)

// interaction answers one interaction. It runs on discordgo's event
// goroutine for this event.
func (a *Adapter) interaction(i *discordgo.Interaction) {
	core, ok := a.begin()
	if !ok {
		return
	}
	defer a.inflight.Done()
	if a.onDone != nil {
		defer a.onDone(i.ID)
	}
	ctx := a.ctx
	start := time.Now()
	cmd, focused := toCommand(i, a.s.State)
	log := a.log.With("interaction", i.ID, "type", i.Type.String(), "command", cmd.Name, "custom_id", cmd.CustomID, "user", cmd.User.ID)

	if i.Type == discordgo.InteractionApplicationCommandAutocomplete {
		choices := toChoices(core.Suggest(ctx, cmd, focused))
		err := a.s.InteractionRespond(i, &discordgo.InteractionResponse{
			Type: discordgo.InteractionApplicationCommandAutocompleteResult,
			Data: &discordgo.InteractionResponseData{Choices: choices},
		}, discordgo.WithContext(ctx))
		if err != nil {
			log.Warn("autocomplete answer failed", "err", err)
		}
		return
	}
	if i.Type != discordgo.InteractionApplicationCommand && i.Type != discordgo.InteractionMessageComponent && i.Type != discordgo.InteractionModalSubmit {
		return
	}

	done := make(chan []bot.Reply, 1)
	go func() { done <- core.Handle(ctx, cmd) }()
	t := time.NewTimer(a.opts.DirectWindow)
	defer t.Stop()
	var replies []bot.Reply
	deferred := false
	select {
	case replies = <-done:
	case <-t.C:
		// The handler is slow (rendering): acknowledge now, answer later.
		typ := discordgo.InteractionResponseDeferredChannelMessageWithSource
		if i.Type == discordgo.InteractionMessageComponent {
			typ = discordgo.InteractionResponseDeferredMessageUpdate
		}
		if err := a.s.InteractionRespond(i, &discordgo.InteractionResponse{Type: typ}, discordgo.WithContext(ctx)); err != nil {
			log.Warn("defer failed", "err", err)
		} else {
			deferred = true
		}
		replies = <-done
	}
	s := &sender{a: a, i: i, cmd: cmd, deferred: deferred}
	s.send(ctx, replies, log)
	log.Debug("interaction answered", "replies", len(replies), "deferred", deferred, "took", time.Since(start))
}
