package discord

import (
	"bytes"
	"strconv"

	"github.com/bwmarrin/discordgo"

	"github.com/tankbot/tankbot/bot"
)

// Discord's limits that the conversions enforce rather than let Discord
// reject the whole message.
const (
	maxChoices     = 25
	maxChoiceText  = 100
	maxRows        = 5
	maxButtonsRow  = 5
	maxMenuOptions = 25
)

// toCommand turns an interaction into the transport-free Command. For
// autocomplete it also returns the name of the focused option.
func toCommand(i *discordgo.Interaction, st *discordgo.State) (c bot.Command, focused string) {
	c = bot.Command{
		User:      interactionUser(i),
		GuildID:   i.GuildID,
		ChannelID: i.ChannelID,
		Locale:    string(i.Locale),
	}
	if i.GuildLocale != nil {
		// Public messages use the server's language.
		c.GuildLocale = string(*i.GuildLocale)
	}
	if st != nil && i.ChannelID != "" {
		// The gateway's GUILDS intent (not privileged) keeps channels and
		// active threads in the state, which is how we know a thread.
		if ch, err := st.Channel(i.ChannelID); err == nil && ch.IsThread() {
			c.ThreadID = ch.ID
			c.ParentID = ch.ParentID
		}
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
// flattened) and returns the focused option's name, if any.
func flattenOptions(opts []*discordgo.ApplicationCommandInteractionDataOption, out map[string]string) (focused string) {
	for _, o := range opts {
		if o == nil {
			continue
		}
		if o.Focused {
			focused = o.Name
		}
		if len(o.Options) > 0 {
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

// toComponents converts rows of buttons and menus, trimming to Discord's
// limits. It never returns nil so that an edit clears old components.
func toComponents(rows [][]bot.Component) []discordgo.MessageComponent {
	out := []discordgo.MessageComponent{}
	for _, row := range rows {
		if len(out) == maxRows {
			break
		}
		var ar discordgo.ActionsRow
		for _, c := range row {
			switch c.Kind {
			case bot.Select:
				m := discordgo.SelectMenu{MenuType: discordgo.StringSelectMenu, CustomID: c.CustomID, Placeholder: c.Placeholder, Disabled: c.Disabled}
				if m.Placeholder == "" {
					m.Placeholder = c.Label
				}
				for k, o := range c.Options {
					if k == maxMenuOptions {
						break
					}
					m.Options = append(m.Options, discordgo.SelectMenuOption{Label: o.Label, Value: o.Value, Description: o.Description})
				}
				// A menu fills its row on its own.
				ar.Components = []discordgo.MessageComponent{m}
			default:
				if len(ar.Components) == maxButtonsRow {
					continue
				}
				ar.Components = append(ar.Components, discordgo.Button{Label: c.Label, Style: buttonStyles[c.Style], CustomID: c.CustomID, Disabled: c.Disabled})
			}
			if c.Kind == bot.Select {
				break
			}
		}
		if len(ar.Components) > 0 {
			out = append(out, ar)
		}
	}
	return out
}

func toModal(m *bot.Modal) *discordgo.InteractionResponseData {
	d := &discordgo.InteractionResponseData{CustomID: m.CustomID, Title: m.Title}
	for _, in := range m.Inputs {
		d.Components = append(d.Components, discordgo.ActionsRow{Components: []discordgo.MessageComponent{
			discordgo.TextInput{CustomID: in.CustomID, Label: in.Label, Style: discordgo.TextInputShort, Placeholder: in.Placeholder, Required: in.Required, MaxLength: 100},
		}})
	}
	return d
}

func toChoices(cs []bot.Choice) []*discordgo.ApplicationCommandOptionChoice {
	out := []*discordgo.ApplicationCommandOptionChoice{}
	for _, c := range cs {
		if len(out) == maxChoices {
			break
		}
		if c.Value == "" {
			continue
		}
		out = append(out, &discordgo.ApplicationCommandOptionChoice{Name: clip(c.Name, maxChoiceText), Value: clip(c.Value, maxChoiceText)})
	}
	return out
}

// clip shortens s to at most n runes.
func clip(s string, n int) string {
	r := []rune(s)
	if len(r) <= n {
		return s
	}
	return string(r[:n])
}

// responseData is a Reply as an interaction response (new message or update).
func responseData(r bot.Reply) *discordgo.InteractionResponseData {
	d := &discordgo.InteractionResponseData{
		Content:         r.Content,
		Embeds:          toEmbeds(r.Embed),
		Components:      toComponents(r.Components),
		Files:           toFiles(r.Files),
		AllowedMentions: allowedMentions(r.Mentions),
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

// webhookEdit is a Reply as an edit of an interaction's original message.
func webhookEdit(r bot.Reply) *discordgo.WebhookEdit {
	content := r.Content
	embeds := toEmbeds(r.Embed)
	comps := toComponents(r.Components)
	return &discordgo.WebhookEdit{
		Content:         &content,
		Embeds:          &embeds,
		Components:      &comps,
		Files:           toFiles(r.Files),
		Attachments:     &[]*discordgo.MessageAttachment{},
		AllowedMentions: allowedMentions(r.Mentions),
	}
}

// messageEdit is a Reply as an edit of a channel message.
func messageEdit(channelID, messageID string, r bot.Reply) *discordgo.MessageEdit {
	content := r.Content
	embeds := toEmbeds(r.Embed)
	comps := toComponents(r.Components)
	return &discordgo.MessageEdit{
		ID: messageID, Channel: channelID,
		Content:         &content,
		Embeds:          &embeds,
		Components:      &comps,
		Files:           toFiles(r.Files),
		Attachments:     &[]*discordgo.MessageAttachment{},
		AllowedMentions: allowedMentions(r.Mentions),
	}
}

// webhookParams is a Reply as a follow-up message.
func webhookParams(r bot.Reply) *discordgo.WebhookParams {
	p := &discordgo.WebhookParams{
		Content:         r.Content,
		Embeds:          toEmbeds(r.Embed),
		Components:      toComponents(r.Components),
		Files:           toFiles(r.Files),
		AllowedMentions: allowedMentions(r.Mentions),
	}
	if r.Ephemeral {
		p.Flags = discordgo.MessageFlagsEphemeral
	}
	return p
}

// messageSend is a Reply as a new channel message.
func messageSend(r bot.Reply) *discordgo.MessageSend {
	return &discordgo.MessageSend{
		Content:         r.Content,
		Embeds:          toEmbeds(r.Embed),
		Components:      toComponents(r.Components),
		Files:           toFiles(r.Files),
		AllowedMentions: allowedMentions(r.Mentions),
	}
}
