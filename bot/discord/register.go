package discord

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/bwmarrin/discordgo"

	"github.com/tankbot/tankbot/bot"
)

var optionTypes = map[bot.OptionType]discordgo.ApplicationCommandOptionType{
	bot.String:        discordgo.ApplicationCommandOptionString,
	bot.UserOption:    discordgo.ApplicationCommandOptionUser,
	bot.Bool:          discordgo.ApplicationCommandOptionBoolean,
	bot.Integer:       discordgo.ApplicationCommandOptionInteger,
	bot.ChannelOption: discordgo.ApplicationCommandOptionChannel,
	bot.RoleOption:    discordgo.ApplicationCommandOptionRole,
}

// textChannels are the channel types a channel option offers: where the
// bot can post (the handler checks the resolved type again).
var textChannels = []discordgo.ChannelType{discordgo.ChannelTypeGuildText, discordgo.ChannelTypeGuildNews}

// toApplicationCommands converts the core's command definitions for
// global registration: each with the installation types and contexts
// where it works (commandPlaces).
func toApplicationCommands(specs []bot.CommandSpec) []*discordgo.ApplicationCommand {
	return toCommandsFor(specs, false)
}

// toCommandsFor converts them for global registration, or for one
// server's (guildScoped), whose commands know no user installs nor DMs.
func toCommandsFor(specs []bot.CommandSpec, guildScoped bool) []*discordgo.ApplicationCommand {
	out := make([]*discordgo.ApplicationCommand, 0, len(specs))
	for _, s := range specs {
		types, contexts := commandPlaces(s.ServerOnly, guildScoped)
		ac := &discordgo.ApplicationCommand{
			IntegrationTypes:         types,
			Contexts:                 contexts,
			Type:                     discordgo.ChatApplicationCommand,
			Name:                     s.Name,
			Description:              s.Description,
			NameLocalizations:        localePtr(s.NameLocalizations),
			DescriptionLocalizations: localePtr(s.DescriptionLocalizations),
			Options:                  []*discordgo.ApplicationCommandOption{},
		}
		if s.ManageServer {
			perm := int64(discordgo.PermissionManageGuild)
			ac.DefaultMemberPermissions = &perm
		}
		for _, sub := range s.Subcommands {
			so := &discordgo.ApplicationCommandOption{
				Type:                     discordgo.ApplicationCommandOptionSubCommand,
				Name:                     sub.Name,
				Description:              sub.Description,
				DescriptionLocalizations: localeMap(sub.DescriptionLocalizations),
				Options:                  []*discordgo.ApplicationCommandOption{},
			}
			for _, o := range sub.Options {
				so.Options = append(so.Options, toOption(o))
			}
			ac.Options = append(ac.Options, so)
		}
		for _, o := range s.Options {
			ac.Options = append(ac.Options, toOption(o))
		}
		out = append(out, ac)
	}
	return out
}

// toOption converts one option of a command or subcommand.
func toOption(o bot.OptionSpec) *discordgo.ApplicationCommandOption {
	ao := &discordgo.ApplicationCommandOption{
		Type:                     optionTypes[o.Type],
		Name:                     o.Name,
		Description:              o.Description,
		DescriptionLocalizations: localeMap(o.DescriptionLocalizations),
		Required:                 o.Required,
		// Discord refuses choices together with autocomplete.
		Autocomplete: o.Autocomplete && len(o.Choices) == 0,
	}
	if o.Type == bot.ChannelOption {
		ao.ChannelTypes = textChannels
	}
	if b := o.Bounds; b != nil {
		lo := float64(b.Min)
		ao.MinValue = &lo
		if b.Max != nil {
			// discordgo omits a zero max_value; no bound here is 0.
			ao.MaxValue = float64(*b.Max)
		}
	}
	for _, c := range o.Choices {
		ao.Choices = append(ao.Choices, &discordgo.ApplicationCommandOptionChoice{Name: c.Name, Value: c.Value, NameLocalizations: localeMap(c.NameLocalizations)})
	}
	return ao
}

func localeMap(m map[string]string) map[discordgo.Locale]string {
	if len(m) == 0 {
		return nil
	}
	out := make(map[discordgo.Locale]string, len(m))
	for k, v := range m {
		if v != "" {
			out[discordgo.Locale(k)] = v
		}
	}
	return out
}

func localePtr(m map[string]string) *map[discordgo.Locale]string {
	lm := localeMap(m)
	if lm == nil {
		return nil
	}
	return &lm
}

// commandsHash identifies a set of definitions: JSON of maps is sorted by
// key, so the same definitions always hash the same.
func commandsHash(cmds []*discordgo.ApplicationCommand) (string, error) {
	b, err := json.Marshal(cmds)
	if err != nil {
		return "", fmt.Errorf("hash commands: %w", err)
	}
	sum := sha256.Sum256(b)
	return hex.EncodeToString(sum[:]), nil
}

// metaKey is per application and guild so that switching the development
// guild on or off registers again.
func metaKey(appID, guildID string) string {
	k := "discord.commands." + appID
	if guildID != "" {
		k += ".guild." + guildID
	}
	return k
}

// MetaSwapper is implemented by a Store shared by several instances: an
// atomic compare-and-set of a meta key, so that only one instance
// registers the commands for a given definitions hash. old == "" matches
// a key never set.
type MetaSwapper interface {
	SwapMeta(ctx context.Context, key, old, new string) (bool, error)
}

// claimTTL bounds how long a registration claim holds: an instance that
// died while registering does not block the others for longer.
const claimTTL = 2 * time.Minute

// claim is the meta value while one instance registers hash h.
func claim(h string, until time.Time) string {
	return "registering " + h + " until " + strconv.FormatInt(until.Unix(), 10)
}

// liveClaim reports whether v is a claim that has not run out.
func liveClaim(v string, now time.Time) bool {
	rest, ok := strings.CutPrefix(v, "registering ")
	if !ok {
		return false
	}
	_, unix, ok := strings.Cut(rest, " until ")
	if !ok {
		return false
	}
	t, err := strconv.ParseInt(unix, 10, 64)
	return err == nil && now.Before(time.Unix(t, 0))
}

// registerCommands overwrites the application's commands when their
// definitions changed since the last registration. With a MetaSwapper
// store, instances starting together agree through a claim on the meta
// key, so exactly one registers each new hash. It reports whether it
// registered.
func (a *Adapter) registerCommands(ctx context.Context, specs []bot.CommandSpec) (bool, error) {
	cmds := toCommandsFor(specs, a.opts.GuildID != "")
	h, err := commandsHash(cmds)
	if err != nil {
		return false, err
	}
	key := metaKey(a.opts.AppID, a.opts.GuildID)
	old, err := a.st.GetMeta(ctx, key)
	if err != nil {
		return false, fmt.Errorf("read command hash: %w", err)
	}
	if old == h {
		a.log.Info("commands unchanged, not registering", "count", len(cmds), "guild", a.opts.GuildID)
		return false, nil
	}
	sw, shared := a.st.(MetaSwapper)
	mine := ""
	if shared {
		if liveClaim(old, time.Now()) {
			a.log.Info("another instance is registering the commands", "guild", a.opts.GuildID)
			return false, nil
		}
		mine = claim(h, time.Now().Add(claimTTL))
		ok, err := sw.SwapMeta(ctx, key, old, mine)
		if err != nil {
			return false, fmt.Errorf("claim command registration: %w", err)
		}
		if !ok {
			// Someone else moved first: they register (or did).
			a.log.Info("another instance registers the commands", "guild", a.opts.GuildID)
			return false, nil
		}
	}
	err = a.retry(ctx, "register commands", func() error {
		_, err := a.s.ApplicationCommandBulkOverwrite(a.opts.AppID, a.opts.GuildID, cmds, discordgo.WithContext(ctx))
		return err
	})
	if err != nil {
		if shared {
			// Release the claim so the next start tries again at once.
			if _, rerr := sw.SwapMeta(ctx, key, mine, old); rerr != nil {
				a.log.Warn("release command registration claim", "err", rerr)
			}
		}
		return false, err
	}
	if shared {
		ok, err := sw.SwapMeta(ctx, key, mine, h)
		if err != nil {
			return true, fmt.Errorf("save command hash: %w", err)
		}
		if !ok {
			a.log.Warn("command registration claim was taken over (it ran out)", "guild", a.opts.GuildID)
		}
	} else if err := a.st.SetMeta(ctx, key, h); err != nil {
		return true, fmt.Errorf("save command hash: %w", err)
	}
	a.log.Info("registered commands", "count", len(cmds), "guild", a.opts.GuildID)
	return true, nil
}
