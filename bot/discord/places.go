package discord

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/bwmarrin/discordgo"

	"github.com/tankbot/tankbot/bot"
)

// Playing where the bot is not a member (docs/discord.md, "Playing
// anywhere"): what the interaction says of its place, posts through an
// earlier interaction's token, the bot's DM, and Discord's refusals.

// Discord's interaction context types and installation types.
const (
	contextGuild          = discordgo.InteractionContextGuild
	contextBotDM          = discordgo.InteractionContextBotDM
	contextPrivateChannel = discordgo.InteractionContextPrivateChannel
	guildInstall          = discordgo.ApplicationIntegrationGuildInstall
	userInstall           = discordgo.ApplicationIntegrationUserInstall
)

// placeOf reads where interaction i happened: botAbsent when the app is
// there only through a user's install (a DM between users, a group DM, a
// server whose authorizing_integration_owners lack GUILD_INSTALL), botDM
// in the DM with the bot. An interaction without owners (a payload from
// before user installs, or a test's) is a server with the bot, or the
// DM with it outside a server.
func placeOf(i *discordgo.Interaction) (botAbsent, botDM bool) {
	owners := i.AuthorizingIntegrationOwners
	if len(owners) == 0 {
		return i.Context == contextPrivateChannel, i.Context == contextBotDM || i.GuildID == "" && i.Context != contextPrivateChannel
	}
	switch i.Context {
	case contextPrivateChannel:
		return true, false
	case contextBotDM:
		return false, true
	}
	_, guild := owners[guildInstall]
	return !guild, false
}

// commandPlaces are the installation types and interaction contexts a
// command is registered for: everywhere, or (serverOnly) only in servers
// that installed the app. Guild-scoped commands (a development server)
// support neither user installs nor DMs: they get the server's only.
func commandPlaces(serverOnly, guildScoped bool) (*[]discordgo.ApplicationIntegrationType, *[]discordgo.InteractionContextType) {
	if serverOnly || guildScoped {
		return &[]discordgo.ApplicationIntegrationType{guildInstall}, &[]discordgo.InteractionContextType{contextGuild}
	}
	return &[]discordgo.ApplicationIntegrationType{guildInstall, userInstall},
		&[]discordgo.InteractionContextType{contextGuild, contextBotDM, contextPrivateChannel}
}

// notMember is Discord refusing a bot-token request because the bot is
// not a member there or may not reach the user: Missing Access (50001),
// Cannot send messages to this user (50007), no mutual guilds (50278).
func notMember(err error) bool {
	var re *discordgo.RESTError
	if !errors.As(err, &re) || re.Message == nil {
		return false
	}
	switch re.Message.Code {
	case discordgo.ErrCodeMissingAccess, discordgo.ErrCodeCannotSendMessagesToThisUser, codeNoMutualGuilds:
		return true
	}
	return false
}

// codeNoMutualGuilds: "Cannot send messages to this user due to having no
// mutual guilds" (not among discordgo v0.29's constants).
const codeNoMutualGuilds = 50278

// asNotMember wraps a refusal of the bot's membership as bot.ErrNotMember,
// which the outbox holds instead of retrying.
func asNotMember(err error) error {
	if err != nil && notMember(err) {
		return fmt.Errorf("%w: %w", bot.ErrNotMember, err)
	}
	return err
}

// PostVia sends r as a follow-up of the interaction with token (issued
// then), where the bot may not post by itself (bot.TokenPoster); a board
// is recorded as reachable through that token.
func (a *Adapter) PostVia(ctx context.Context, token string, issued time.Time, r bot.Reply) (string, error) {
	i := &discordgo.Interaction{AppID: a.opts.AppID, Token: token}
	r.ChannelID, r.Ephemeral = "", false
	var m *discordgo.Message
	err := a.withoutFilesIfRefused(ctx, r, func(r bot.Reply) error {
		return a.retry(ctx, opFollowUp, func() error {
			var err error
			m, err = a.createFollowup(ctx, i, r)
			return err
		})
	})
	if err != nil {
		return "", err
	}
	a.recordVia(ctx, r, m.ChannelID, m.ID, bot.Hook{Token: token, Message: m.ID, Issued: issued})
	return m.ID, nil
}

// OpenDM opens (or finds) the bot's DM with user (bot.DMOpener).
func (a *Adapter) OpenDM(ctx context.Context, user string) (string, error) {
	var id string
	err := a.retry(ctx, "open DM", func() error {
		ch, err := a.s.UserChannelCreate(user, discordgo.WithContext(ctx))
		if err != nil {
			return err
		}
		id = ch.ID
		return nil
	})
	return id, asNotMember(err)
}
