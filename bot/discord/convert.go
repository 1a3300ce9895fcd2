package discord

import (
	"bytes"
	"strconv"
	"strings"

	"github.com/bwmarrin/discordgo"

	"github.com/tankbot/tankbot/bot"
)

// toCommand turns an interaction into the transport-free Command. ch is
// the interaction's channel when known (the gateway's state, or the
// channel the HTTP payload carries): that is how a thread is recognised.
// For autocomplete it also returns the name of the focused option.
func toCommand(i *discordgo.Interaction, ch *discordgo.Channel) (c bot.Command, focused string) {
	c = bot.Command{
		User:      interactionUser(i),
		GuildID:   i.GuildID,
		ChannelID: i.ChannelID,
		Locale:    string(i.Locale),
	}
	if i.Member != nil {
		c.ManageServer = i.Member.Permissions&discordgo.PermissionManageGuild != 0
		c.Roles = i.Member.Roles
	}
	c.BotAbsent, c.BotDM = placeOf(i)
	if i.GuildLocale != nil {
		// Public messages use the server's language.
		c.GuildLocale = string(*i.GuildLocale)
	}
	if ch != nil && ch.ID == i.ChannelID && ch.IsThread() {
		c.ThreadID = ch.ID
		c.ParentID = ch.ParentID
	}
	switch i.Type {
	case discordgo.InteractionApplicationCommand, discordgo.InteractionApplicationCommandAutocomplete:
		c.Kind = bot.KindSlash
		d := i.ApplicationCommandData()
		c.Name = d.Name
		c.Options = map[string]string{}
		focused = flattenOptions(d.Options, c.Options)
		if d.Resolved != nil {
			for id, u := range d.Resolved.Users {
				if c.Users == nil {
					c.Users = map[string]bot.User{}
				}
				bu := toUser(u)
				if m, ok := d.Resolved.Members[id]; ok && m != nil && m.Nick != "" {
					bu.Name = m.Nick
				}
				c.Users[id] = bu
			}
			for id, ch := range d.Resolved.Channels {
				if ch == nil {
					continue
				}
				if c.Channels == nil {
					c.Channels = map[string]bot.ChannelInfo{}
				}
				text := ch.Type == discordgo.ChannelTypeGuildText || ch.Type == discordgo.ChannelTypeGuildNews
				c.Channels[id] = bot.ChannelInfo{ID: id, Name: ch.Name, Text: text}
			}
		}
	case discordgo.InteractionMessageComponent:
		c.Kind = bot.KindComponent
		d := i.MessageComponentData()
		c.CustomID = d.CustomID
		c.Values = d.Values
		if i.Message != nil {
			c.MessageID = i.Message.ID
		}
	case discordgo.InteractionModalSubmit:
		c.Kind = bot.KindModal
		d := i.ModalSubmitData()
		c.CustomID = d.CustomID
		c.Values = modalValues(d.Components)
		if i.Message != nil {
			c.MessageID = i.Message.ID
		}
	}
	return c, focused
}

// flattenOptions copies option values as text into out (sub-commands are
// flattened: the chosen one's name goes in bot.SubcommandOption) and
// returns the focused option's name, if any.
func flattenOptions(opts []*discordgo.ApplicationCommandInteractionDataOption, out map[string]string) (focused string) {
	for _, o := range opts {
		if o == nil {
			continue
		}
		if o.Focused {
			focused = o.Name
		}
		if o.Type == discordgo.ApplicationCommandOptionSubCommand {
			out[bot.SubcommandOption] = o.Name
		}
		if len(o.Options) > 0 || o.Type == discordgo.ApplicationCommandOptionSubCommand || o.Type == discordgo.ApplicationCommandOptionSubCommandGroup {
			if f := flattenOptions(o.Options, out); f != "" {
				focused = f
			}
			continue
		}
		out[o.Name] = optionText(o)
	}
	return focused
}

func optionText(o *discordgo.ApplicationCommandInteractionDataOption) string {
	switch v := o.Value.(type) {
	case string:
		return v
	case bool:
		return strconv.FormatBool(v)
	case float64:
		return strconv.FormatFloat(v, 'f', -1, 64)
	case nil:
		return ""
	}
	return ""
}

func modalValues(rows []discordgo.MessageComponent) []string {
	var out []string
	for _, r := range rows {
		switch v := r.(type) {
		case *discordgo.ActionsRow:
			out = append(out, modalValues(v.Components)...)
		case *discordgo.TextInput:
			out = append(out, v.Value)
		}
	}
	return out
}

func interactionUser(i *discordgo.Interaction) bot.User {
	if i.Member != nil && i.Member.User != nil {
		u := toUser(i.Member.User)
		if i.Member.Nick != "" {
			u.Name = i.Member.Nick
		}
		return u
	}
	if i.User != nil {
		return toUser(i.User)
	}
	return bot.User{}
}

func toUser(u *discordgo.User) bot.User {
	if u == nil {
		return bot.User{}
	}
	name := u.GlobalName
	if name == "" {
		name = u.Username
	}
	return bot.User{ID: u.ID, Name: name, Bot: u.Bot}
}

// allowedMentions pings exactly the listed users and nothing the content
// might otherwise mention (@everyone, roles, other users).
func allowedMentions(users []string) *discordgo.MessageAllowedMentions {
	am := &discordgo.MessageAllowedMentions{Parse: []discordgo.AllowedMentionType{}}
	if len(users) > 0 {
		am.Users = append([]string(nil), users...)
	}
	return am
}

func toEmbeds(e *bot.Embed) []*discordgo.MessageEmbed {
	if e == nil {
		return []*discordgo.MessageEmbed{}
	}
	me := &discordgo.MessageEmbed{Title: e.Title, Description: e.Description, Color: e.Color}
	for _, f := range e.Fields {
		me.Fields = append(me.Fields, &discordgo.MessageEmbedField{Name: f.Name, Value: f.Value, Inline: f.Inline})
	}
	if e.Image != "" {
		me.Image = &discordgo.MessageEmbedImage{URL: "attachment://" + e.Image}
	}
	if e.Footer != "" {
		me.Footer = &discordgo.MessageEmbedFooter{Text: e.Footer}
	}
	return []*discordgo.MessageEmbed{me}
}

func toFiles(fs []bot.File) []*discordgo.File {
	out := make([]*discordgo.File, 0, len(fs))
	for _, f := range fs {
		ct := f.ContentType
		if ct == "" {
			ct = "application/octet-stream"
		}
		out = append(out, &discordgo.File{Name: f.Name, ContentType: ct, Reader: bytes.NewReader(f.Data)})
	}
	return out
}

var buttonStyles = map[bot.Style]discordgo.ButtonStyle{
	bot.Primary:   discordgo.PrimaryButton,
	bot.Secondary: discordgo.SecondaryButton,
	bot.Success:   discordgo.SuccessButton,
	bot.Danger:    discordgo.DangerButton,
}

// toComponents converts rows of buttons and menus already fitted to
// Discord's limits (FitReply). It never returns nil so that an edit
// clears old components.
func toComponents(rows [][]bot.Component) []discordgo.MessageComponent {
	out := []discordgo.MessageComponent{}
	for _, row := range rows {
		var ar discordgo.ActionsRow
		for _, c := range row {
			switch c.Kind {
			case bot.Select:
				m := discordgo.SelectMenu{MenuType: discordgo.StringSelectMenu, CustomID: c.CustomID, Placeholder: c.Placeholder, Disabled: c.Disabled}
				if m.Placeholder == "" {
					m.Placeholder = c.Label
				}
				for _, o := range c.Options {
					m.Options = append(m.Options, discordgo.SelectMenuOption{Label: o.Label, Value: o.Value, Description: o.Description})
				}
				ar.Components = append(ar.Components, m)
			default:
				if c.Style == bot.Link {
					ar.Components = append(ar.Components, discordgo.Button{Label: c.Label, Style: discordgo.LinkButton, URL: c.URL, Disabled: c.Disabled})
					continue
				}
				ar.Components = append(ar.Components, discordgo.Button{Label: c.Label, Style: buttonStyles[c.Style], CustomID: c.CustomID, Disabled: c.Disabled})
			}
		}
		if len(ar.Components) > 0 {
			out = append(out, ar)
		}
	}
	return out
}

// toModal converts a modal; callers pass it through FitReply first.
func toModal(m *bot.Modal) *discordgo.InteractionResponseData {
	d := &discordgo.InteractionResponseData{CustomID: m.CustomID, Title: m.Title}
	for _, in := range m.Inputs {
		d.Components = append(d.Components, discordgo.ActionsRow{Components: []discordgo.MessageComponent{
			discordgo.TextInput{CustomID: in.CustomID, Label: in.Label, Style: discordgo.TextInputShort, Placeholder: in.Placeholder, Required: in.Required, MaxLength: 100},
		}})
	}
	return d
}

// toChoices fits autocomplete choices to Discord's limits and converts them.
func toChoices(cs []bot.Choice) []*discordgo.ApplicationCommandOptionChoice {
	out := []*discordgo.ApplicationCommandOptionChoice{}
	for _, c := range FitChoices(cs) {
		out = append(out, &discordgo.ApplicationCommandOptionChoice{Name: c.Name, Value: c.Value})
	}
	return out
}

// message is a Reply fitted to Discord's limits and converted: every
// message the adapter sends (responses, edits, follow-ups, channel posts,
// over the gateway's REST calls or the HTTP endpoint) is built here, so
// nothing leaves over a limit.
type message struct {
	content    string
	embeds     []*discordgo.MessageEmbed
	components []discordgo.MessageComponent
	files      []*discordgo.File
	mentions   *discordgo.MessageAllowedMentions
	modal      *discordgo.InteractionResponseData
}

func toMessage(r bot.Reply) message {
	r = FitReply(forDiscord(r))
	m := message{
		content:    r.Content,
		embeds:     toEmbeds(r.Embed),
		components: toComponents(r.Components),
		files:      toFiles(r.Files),
		mentions:   allowedMentions(r.Mentions),
	}
	if r.Modal != nil {
		m.modal = toModal(r.Modal)
	}
	return m
}

// responseData is a Reply as an interaction response (new message or update).
func responseData(r bot.Reply) *discordgo.InteractionResponseData {
	m := toMessage(r)
	d := &discordgo.InteractionResponseData{
		Content:         m.content,
		Embeds:          m.embeds,
		Components:      m.components,
		Files:           m.files,
		AllowedMentions: m.mentions,
	}
	if r.Ephemeral {
		d.Flags = discordgo.MessageFlagsEphemeral
	}
	if r.Update {
		// Only the files sent now stay: the old board image goes.
		d.Attachments = &[]*discordgo.MessageAttachment{}
	}
	return d
}

// modalData is a Reply's modal as an interaction response.
func modalData(r bot.Reply) *discordgo.InteractionResponseData {
	return toMessage(r).modal
}

// webhookEdit is a Reply as an edit of an interaction's original message.
func webhookEdit(r bot.Reply) *discordgo.WebhookEdit {
	m := toMessage(r)
	return &discordgo.WebhookEdit{
		Content:         &m.content,
		Embeds:          &m.embeds,
		Components:      &m.components,
		Files:           m.files,
		Attachments:     &[]*discordgo.MessageAttachment{},
		AllowedMentions: m.mentions,
	}
}

// messageEdit is a Reply as an edit of a channel message.
func messageEdit(channelID, messageID string, r bot.Reply) *discordgo.MessageEdit {
	m := toMessage(r)
	return &discordgo.MessageEdit{
		ID: messageID, Channel: channelID,
		Content:         &m.content,
		Embeds:          &m.embeds,
		Components:      &m.components,
		Files:           m.files,
		Attachments:     &[]*discordgo.MessageAttachment{},
		AllowedMentions: m.mentions,
	}
}

// webhookParams is a Reply as a follow-up message.
func webhookParams(r bot.Reply) *discordgo.WebhookParams {
	m := toMessage(r)
	p := &discordgo.WebhookParams{
		Content:         m.content,
		Embeds:          m.embeds,
		Components:      m.components,
		Files:           m.files,
		AllowedMentions: m.mentions,
	}
	if r.Ephemeral {
		p.Flags = discordgo.MessageFlagsEphemeral
	}
	return p
}

// messageSend is a Reply as a new channel message.
func messageSend(r bot.Reply) *discordgo.MessageSend {
	m := toMessage(r)
	return &discordgo.MessageSend{
		Content:         m.content,
		Embeds:          m.embeds,
		Components:      m.components,
		Files:           m.files,
		AllowedMentions: m.mentions,
	}
}

// forDiscord is r as Discord shows it: the players' names, which the core
// keeps as typed and marks, escaped where Discord renders markdown (so a
// name cannot become a link, a mention or formatting) and plain where it
// does not (buttons, menus, footers).
func forDiscord(r bot.Reply) bot.Reply {
	return r.WithText(func(s string) string { return bot.MarkedText(s, escapeMarkdown) }, bot.PlainText)
}

// escapeMarkdown puts a backslash before every character Discord's
// markdown (or a mention, an emoji, a link) could read in s.
func escapeMarkdown(s string) string {
	var sb strings.Builder
	for _, r := range s {
		if strings.ContainsRune("\\*_~`|>[]()<@:", r) {
			sb.WriteByte('\\')
		}
		sb.WriteRune(r)
	}
	return sb.String()
}
