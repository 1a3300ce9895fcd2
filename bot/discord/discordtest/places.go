package discordtest

import (
	"fmt"
	"net/http"
	"slices"
	"strings"
)

// Where the app is installed, and what it may do there. The rules follow
// Discord's pages on installation contexts and user-installed apps
// (docs/discord.md, "Playing anywhere: user-installed"):
//
//   - application.mdx, "Installation Context": an app installed only to a
//     user "can't take actions in a server"; its bot user is not a member
//     of the server, of a DM between users or of a group DM, so a message
//     or an edit with the bot token there fails: 403, code 50001 (Missing
//     Access, opcodes-and-status-codes.mdx);
//   - receiving-and-responding.mdx, "Create Followup Message": "Apps are
//     limited to 5 followup messages per interaction if it was initiated
//     from a user-installed app and isn't installed in the server
//     (meaning the authorizing integration owners object only contains
//     USER_INSTALL)": the sixth fails with code 40094;
//   - the interaction's context (GUILD 0, BOT_DM 1, PRIVATE_CHANNEL 2),
//     authorizing_integration_owners ("0": the server, or "0" in the DM
//     with the bot; "1": the authorizing user) and app_permissions
//     (ATTACH_FILES | EMBED_LINKS | MENTION_EVERYONE in (G)DMs with other
//     users, plus USE_EXTERNAL_EMOJIS in the DM with the bot);
//   - a command reaches the app only where its contexts and
//     integration_types allow it, from a user who can see it: a member of
//     a server with the bot, or a user who installed the app.
//
// Channels the test never declares behave as before: a server channel
// with the bot a member.

// Discord's channel types used here.
const (
	ChannelGuildText = 0
	ChannelDM        = 1
	ChannelGroupDM   = 3
)

// Interaction context types and installation (integration) types.
const (
	ContextGuild          = 0
	ContextBotDM          = 1
	ContextPrivateChannel = 2
	GuildInstall          = 0
	UserInstall           = 1
)

// Permission bits app_permissions is made of.
const (
	permAttachFiles       = 1 << 15
	permEmbedLinks        = 1 << 14
	permMentionEveryone   = 1 << 17
	permUseExternalEmojis = 1 << 18
	// PrivatePermissions is app_permissions in a DM between users or a
	// group DM (and, in this fake, in a server without the bot);
	// BotDMPermissions in the DM with the app's bot user.
	PrivatePermissions = permAttachFiles | permEmbedLinks | permMentionEveryone
	BotDMPermissions   = PrivatePermissions | permUseExternalEmojis
	// GuildBotPermissions is app_permissions where the bot is a member:
	// what the invite grants (bot/discord.InvitePermissions).
	GuildBotPermissions = 309237763072
)

// Error codes of the rules above.
const (
	CodeMissingAccess     = 50001
	CodeMaxFollowups      = 40094
	CodeNoMutualGuilds    = 50278
	MaxUserAppFollowups   = 5
	missingAccessMessage  = "Missing Access"
	maxFollowupsMessage   = "This interaction has hit the maximum number of follow up messages"
	noMutualGuildsMessage = "Cannot send messages to this user due to having no mutual guilds"
)

// channelPlace is what the fake knows of a declared channel.
type channelPlace struct {
	guild   string   // "" outside a server
	typ     int      // ChannelGuildText, ChannelDM or ChannelGroupDM
	botDM   bool     // the DM between a user and the app's bot user
	members []string // a DM's or group DM's recipients
}

// AddGuild declares a server; bot says whether the app's bot user is a
// member (installed to the server) or not (reached only by users who
// installed the app to their account).
func (f *Fake) AddGuild(guild string, bot bool) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.guildsInit()
	f.guilds[guild] = bot
}

// AddChannel declares a text channel of a declared server.
func (f *Fake) AddChannel(channel, guild string) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.guildsInit()
	f.places[channel] = &channelPlace{guild: guild, typ: ChannelGuildText}
}

// AddDM declares a DM between two users (len(users) == 2) or a group DM
// (more): the bot is never a member.
func (f *Fake) AddDM(channel string, users ...string) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.guildsInit()
	typ := ChannelDM
	if len(users) > 2 {
		typ = ChannelGroupDM
	}
	f.places[channel] = &channelPlace{typ: typ, members: users}
}

// AddBotDM declares channel as the DM between user and the bot. The bot
// may post there when the user shares a server with it or installed the
// app (see CreateDM).
func (f *Fake) AddBotDM(channel, user string) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.guildsInit()
	f.places[channel] = &channelPlace{typ: ChannelDM, botDM: true, members: []string{user}}
	f.botDMs[user] = channel
}

// InstallToUser installs the app to user's account (USER_INSTALL).
func (f *Fake) InstallToUser(user string) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.guildsInit()
	f.userApps[user] = true
}

// JoinGuild makes user a member of a declared server.
func (f *Fake) JoinGuild(user, guild string) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.guildsInit()
	f.memberOf[user] = append(f.memberOf[user], guild)
}

func (f *Fake) guildsInit() {
	if f.guilds != nil {
		return
	}
	f.guilds, f.places, f.userApps = map[string]bool{}, map[string]*channelPlace{}, map[string]bool{}
	f.memberOf, f.botDMs, f.followups = map[string][]string{}, map[string]string{}, map[string]int{}
	f.userOnly = map[string]bool{}
}

// botMemberLocked reports whether the bot user is a member of channel:
// undeclared channels are server channels with the bot, as before.
func (f *Fake) botMemberLocked(channel string) bool {
	p := f.places[channel]
	if p == nil {
		return true
	}
	if p.typ == ChannelGuildText {
		return f.guilds[p.guild]
	}
	return p.botDM
}

// sharesGuildLocked reports whether user is in a server the bot is in.
func (f *Fake) sharesGuildLocked(user string) bool {
	for _, g := range f.memberOf[user] {
		if f.guilds[g] {
			return true
		}
	}
	return false
}

// refuseBotTokenLocked applies the membership rule to a request made with
// the bot token on /channels/{id}/…: where the bot is not a member,
// Discord answers 403 Missing Access. In the DM with the bot, a user who
// neither shares a server with it nor installed the app cannot be reached
// (50278). It reports whether it answered.
func (f *Fake) refuseBotTokenLocked(w http.ResponseWriter, c *Call, p []string) bool {
	if f.places == nil || len(p) < 2 || p[0] != "channels" {
		return false
	}
	pl := f.places[p[1]]
	if pl == nil {
		return false
	}
	if !f.botMemberLocked(p[1]) {
		c.Status, c.Refused = 403, true
		writeJSON(w, 403, discordError(CodeMissingAccess, missingAccessMessage))
		return true
	}
	if pl.botDM && c.Method == "POST" {
		u := pl.members[0]
		if !f.sharesGuildLocked(u) && !f.userApps[u] {
			c.Status, c.Refused = 403, true
			writeJSON(w, 403, discordError(CodeNoMutualGuilds, noMutualGuildsMessage))
			return true
		}
	}
	return false
}

// createDMLocked answers POST /users/@me/channels: the DM channel between
// the bot and the recipient, made on first use (Create DM, user.mdx).
func (f *Fake) createDMLocked(w http.ResponseWriter, c *Call) {
	f.guildsInit()
	user, _ := c.Payload["recipient_id"].(string)
	if user == "" {
		c.Status = 400
		writeJSON(w, 400, discordError(50035, "Invalid Form Body: recipient_id"))
		return
	}
	ch := f.botDMs[user]
	if ch == "" {
		ch = f.id()
		f.places[ch] = &channelPlace{typ: ChannelDM, botDM: true, members: []string{user}}
		f.botDMs[user] = ch
	}
	writeJSON(w, 200, map[string]any{"id": ch, "type": ChannelDM, "recipients": []any{map[string]any{"id": user}}})
}

// BotDM is the channel of the DM between user and the bot ("" before it
// exists).
func (f *Fake) BotDM(user string) string {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.botDMs[user]
}

// dressLocked fills an interaction sent in a declared channel with what
// Discord would send there: guild_id and member (a server) or user (a
// DM), the partial channel, context, authorizing_integration_owners and
// app_permissions. A component takes the owners of the interaction that
// made its message. A command the invoking user could not see there
// (no bot in the place and no app on their account, or a command whose
// contexts or integration_types exclude the place) fails the test:
// Discord would never send it.
func (f *Fake) dressLocked(ev map[string]any) {
	ch, _ := ev["channel_id"].(string)
	pl := f.places[ch]
	if pl == nil {
		return
	}
	user := eventUser(ev)
	if pl.typ == ChannelGuildText {
		ev["guild_id"] = pl.guild
		ev["context"] = ContextGuild
		if u, ok := ev["user"]; ok && ev["member"] == nil {
			ev["member"] = map[string]any{"user": u}
		}
		delete(ev, "user")
	} else {
		delete(ev, "guild_id")
		delete(ev, "guild_locale")
		if m, ok := ev["member"].(map[string]any); ok {
			ev["user"] = m["user"]
		}
		delete(ev, "member")
		ev["context"] = ContextPrivateChannel
		if pl.botDM {
			ev["context"] = ContextBotDM
		}
	}
	ev["channel"] = map[string]any{"id": ch, "type": pl.typ}
	owners := map[string]any{}
	switch {
	case pl.typ == ChannelGuildText && f.guilds[pl.guild]:
		owners["0"] = pl.guild
	case pl.botDM && f.sharesGuildLocked(user):
		owners["0"] = "0"
	}
	if f.userApps[user] {
		owners["1"] = user
	}
	typ, _ := ev["type"].(int)
	if typ == 0 {
		if t, ok := ev["type"].(float64); ok {
			typ = int(t)
		}
	}
	if msg, ok := ev["message"].(map[string]any); ok && (typ == 3 || typ == 5) {
		// A click or a form on a message: the owners are those of the
		// interaction that posted it, whoever clicks.
		if id, _ := msg["id"].(string); id != "" {
			if m := f.messages[id]; m != nil && m.owners != nil {
				owners = copyMap(m.owners)
			}
		}
	}
	if (typ == 2 || typ == 4) && len(owners) == 0 {
		f.t.Errorf("fake discord: %s cannot use the app's commands in channel %s: the bot is not there and the app is not installed to their account", user, ch)
	} else if typ == 2 || typ == 4 {
		if why := f.commandHiddenLocked(ev, pl, owners); why != "" {
			f.t.Errorf("fake discord: Discord would not offer this command here: %s", why)
		}
	}
	if f.HidePlaces {
		delete(ev, "context")
		return
	}
	ev["authorizing_integration_owners"] = owners
	switch {
	case f.botMemberLocked(ch) && pl.typ == ChannelGuildText:
		ev["app_permissions"] = fmt.Sprint(GuildBotPermissions)
	case pl.botDM:
		ev["app_permissions"] = fmt.Sprint(BotDMPermissions)
	default:
		ev["app_permissions"] = fmt.Sprint(PrivatePermissions)
	}
}

// commandHiddenLocked says why the registered command of ev would not be
// shown in place pl to a user authorized by owners ("" when it would).
func (f *Fake) commandHiddenLocked(ev map[string]any, pl *channelPlace, owners map[string]any) string {
	data, _ := ev["data"].(map[string]any)
	name, _ := data["name"].(string)
	cmd, ok := f.registered[name]
	if !ok {
		return "" // registration not seen by this fake (a test without it)
	}
	ctx := ContextGuild
	switch {
	case pl.botDM:
		ctx = ContextBotDM
	case pl.typ != ChannelGuildText:
		ctx = ContextPrivateChannel
	}
	if cmd.contexts != nil && !slices.Contains(cmd.contexts, ctx) {
		return fmt.Sprintf("/%s does not list context %d", name, ctx)
	}
	types := cmd.integrationTypes
	if types == nil {
		types = []int{GuildInstall}
	}
	for k := range owners {
		if k == "0" && slices.Contains(types, GuildInstall) || k == "1" && slices.Contains(types, UserInstall) {
			return ""
		}
	}
	return fmt.Sprintf("/%s (integration_types %v) is not installed for this user here", name, types)
}

// registeredCommand is what the fake keeps of a registered command.
type registeredCommand struct {
	contexts, integrationTypes []int
}

// noteCommandsLocked keeps the contexts and integration types of each
// registered command.
func (f *Fake) noteCommandsLocked(cmds []map[string]any) {
	f.registered = map[string]registeredCommand{}
	for _, c := range cmds {
		name, _ := c["name"].(string)
		f.registered[name] = registeredCommand{contexts: ints(c["contexts"]), integrationTypes: ints(c["integration_types"])}
	}
}

func ints(v any) []int {
	arr, ok := v.([]any)
	if !ok {
		return nil
	}
	out := []int{}
	for _, x := range arr {
		if n, ok := x.(float64); ok {
			out = append(out, int(n))
		}
	}
	return out
}

func eventUser(ev map[string]any) string {
	if m, ok := ev["member"].(map[string]any); ok {
		if u, ok := m["user"].(map[string]any); ok {
			id, _ := u["id"].(string)
			return id
		}
	}
	if u, ok := ev["user"].(map[string]any); ok {
		id, _ := u["id"].(string)
		return id
	}
	return ""
}

// userOnlyOwners reports whether owners hold only USER_INSTALL: the app
// is not installed where the interaction happened.
func userOnlyOwners(owners map[string]any) bool {
	_, guild := owners["0"]
	_, user := owners["1"]
	return user && !guild
}

// limitFollowupLocked counts a Create Followup Message on token and
// refuses the sixth of a user-installed interaction outside its servers.
func (f *Fake) limitFollowupLocked(w http.ResponseWriter, c *Call, token string) bool {
	if f.userOnly == nil || !f.userOnly[token] {
		return false
	}
	if f.followups[token] >= MaxUserAppFollowups {
		c.Status, c.Refused = 400, true
		writeJSON(w, 400, discordError(CodeMaxFollowups, maxFollowupsMessage))
		return true
	}
	f.followups[token]++
	return false
}

// Refused are the calls Discord refused by the rules of this file (bot
// token where the bot is not a member, a user the bot cannot DM, a
// follow-up over the limit).
func (f *Fake) Refused() []*Call {
	f.mu.Lock()
	defer f.mu.Unlock()
	var out []*Call
	for _, c := range f.calls {
		if c.Refused {
			out = append(out, c)
		}
	}
	return out
}

// isBotDMPath reports whether path is Create DM.
func isBotDMPath(p []string) bool {
	return len(p) == 3 && p[0] == "users" && p[1] == "@me" && strings.EqualFold(p[2], "channels")
}
