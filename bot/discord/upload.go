package discord

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"

	"github.com/bwmarrin/discordgo"

	"github.com/tankbot/tankbot/bot"
	"github.com/tankbot/tankbot/bot/view"
)

// Uploads carry their alt text. Discord reads each file's description from
// the message's attachments array, whose entries name the file part by its
// index (files[n] → id n): see docs/discord.md. discordgo v0.29's
// MessageAttachment has no description field, so every request that
// uploads files is written here, with the payload's attachments array set
// from the reply's files; requests without files still go through
// discordgo's own methods.

// attachment is Discord's attachment object as sent with an upload.
type attachment struct {
	ID          int    `json:"id"`
	Filename    string `json:"filename"`
	Description string `json:"description,omitempty"`
}

// attachmentsOf names fs as the multipart body numbers them, each with its
// alt text as plain text (the core marks players' names; a description is
// not markdown).
func attachmentsOf(fs []bot.File) []attachment {
	out := make([]attachment, len(fs))
	for k, f := range fs {
		out[k] = attachment{ID: k, Filename: f.Name, Description: view.Clip(bot.PlainText(f.Description), MaxFileDescription)}
	}
	return out
}

// withAttachments is payload's JSON with its attachments array (under
// data for an interaction response, which nests the message there) set to
// atts: only the files sent now stay on the message.
func withAttachments(payload any, under string, atts []attachment) (json.RawMessage, error) {
	raw, err := json.Marshal(payload)
	if err != nil {
		return nil, err
	}
	var top map[string]json.RawMessage
	if err := json.Unmarshal(raw, &top); err != nil {
		return nil, err
	}
	list, err := json.Marshal(atts)
	if err != nil {
		return nil, err
	}
	if under == "" {
		top["attachments"] = list
		return json.Marshal(top)
	}
	var inner map[string]json.RawMessage
	if err := json.Unmarshal(top[under], &inner); err != nil {
		return nil, err
	}
	inner["attachments"] = list
	if top[under], err = json.Marshal(inner); err != nil {
		return nil, err
	}
	return json.Marshal(top)
}

// upload sends payload with fs as Discord's multipart form (payload_json
// and files[n]) and returns Discord's answer.
func (a *Adapter) upload(ctx context.Context, method, endpoint, bucket string, payload any, under string, fs []bot.File) ([]byte, error) {
	body, err := withAttachments(payload, under, attachmentsOf(fs))
	if err != nil {
		return nil, fmt.Errorf("encode message: %w", err)
	}
	ct, data, err := discordgo.MultipartBodyWithJSON(body, toFiles(fs))
	if err != nil {
		return nil, fmt.Errorf("encode message: %w", err)
	}
	return a.s.RequestRaw(method, endpoint, ct, data, bucket, 0, discordgo.WithContext(ctx))
}

// uploadMessage is upload for a request that answers with the message.
func (a *Adapter) uploadMessage(ctx context.Context, method, endpoint, bucket string, payload any, fs []bot.File) (*discordgo.Message, error) {
	resp, err := a.upload(ctx, method, endpoint, bucket, payload, "", fs)
	if err != nil {
		return nil, err
	}
	var m discordgo.Message
	if err := json.Unmarshal(resp, &m); err != nil {
		return nil, fmt.Errorf("decode message: %w", err)
	}
	return &m, nil
}

// richEmbeds marks embeds rich, as discordgo's own edit does.
func richEmbeds(es []*discordgo.MessageEmbed) {
	for _, e := range es {
		if e.Type == "" {
			e.Type = discordgo.EmbedTypeRich
		}
	}
}

// editWebhookMessage is discordgo's WebhookMessageEdit (the interaction's
// response or a follow-up, by the interaction's token), with alt text
// when r uploads files.
func (a *Adapter) editWebhookMessage(ctx context.Context, i *discordgo.Interaction, messageID string, r bot.Reply) (*discordgo.Message, error) {
	data := webhookEdit(r)
	if len(r.Files) == 0 {
		return a.s.WebhookMessageEdit(i.AppID, i.Token, messageID, data, discordgo.WithContext(ctx))
	}
	uri := discordgo.EndpointWebhookMessage(i.AppID, i.Token, messageID)
	return a.uploadMessage(ctx, http.MethodPatch, uri, uri, data, r.Files)
}

// createFollowup is discordgo's FollowupMessageCreate (waiting for the
// message), with alt text when r uploads files.
func (a *Adapter) createFollowup(ctx context.Context, i *discordgo.Interaction, r bot.Reply) (*discordgo.Message, error) {
	data := webhookParams(r)
	if len(r.Files) == 0 {
		return a.s.FollowupMessageCreate(i, true, data, discordgo.WithContext(ctx))
	}
	uri := discordgo.EndpointWebhookToken(i.AppID, i.Token) + "?" + url.Values{"wait": {"true"}}.Encode()
	return a.uploadMessage(ctx, http.MethodPost, uri, uri, data, r.Files)
}

// editChannelMessage is discordgo's ChannelMessageEditComplex with alt
// text when e uploads files (fs, the files e.Files was made from).
func (a *Adapter) editChannelMessage(ctx context.Context, e *discordgo.MessageEdit, fs []bot.File) (*discordgo.Message, error) {
	if len(fs) == 0 {
		return a.s.ChannelMessageEditComplex(e, discordgo.WithContext(ctx))
	}
	if e.Embeds != nil {
		richEmbeds(*e.Embeds)
	}
	return a.uploadMessage(ctx, http.MethodPatch, discordgo.EndpointChannelMessage(e.Channel, e.ID), discordgo.EndpointChannelMessage(e.Channel, ""), e, fs)
}
