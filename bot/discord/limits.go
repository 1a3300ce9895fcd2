package discord

import (
	"unicode/utf8"

	"github.com/tankbot/tankbot/bot/view"
)

// Discord's limits on what a message, a modal and an autocomplete answer
// may hold, in characters (runes). A message over any of them is refused
// whole, so every Reply is fitted (FitReply) before it is sent.
const (
	MaxContent          = 2000 // view.MaxText fits (TestMaxTextFits)
	MaxEmbedTitle       = 256
	MaxEmbedDescription = 4096
	MaxFieldName        = 256
	MaxFieldValue       = 1024
	MaxFields           = 25
	MaxFooter           = 2048
	MaxEmbedTotal       = 6000 // title + description + fields + footer
	MaxRows             = 5
	MaxButtonsPerRow    = 5
	MaxMenuOptions      = 25
	MaxButtonLabel      = 80
	MaxCustomID         = 100
	MaxOptionText       = 100 // select option label, value and description
	MaxPlaceholder      = 150
	MaxChoices          = 25
	MaxChoiceText       = 100
	MaxModalTitle       = 45
	MaxModalInputs      = 5
	MaxInputLabel       = 45
	MaxInputPlaceholder = 100
	MaxFiles            = 10
	MaxFileDescription  = 1024 // an attachment's alt text
)

func runes(s string) int { return utf8.RuneCountInString(s) }

// exact reports whether s, a value the bot reads back (custom id, option
// or choice value), can be sent as it is: not empty, valid UTF-8, at most
// n runes.
func exact(s string, n int) bool {
	return s != "" && utf8.ValidString(s) && runes(s) <= n
}

// FitReply returns r within Discord's limits: text clipped (by rune, with
// an ellipsis), surplus fields, rows, buttons, options and files dropped,
// and components Discord would refuse (a custom id over 100 characters, a
// menu without options) left out rather than sent. r is not modified.
func FitReply(r view.Reply) view.Reply {
	r.Content = view.Clip(r.Content, MaxContent)
	r.FallbackText = view.Clip(r.FallbackText, MaxContent)
	if r.Embed != nil {
		e := fitEmbed(*r.Embed)
		r.Embed = &e
	}
	r.Components = fitComponents(r.Components)
	if len(r.Files) > MaxFiles {
		r.Files = r.Files[:MaxFiles:MaxFiles]
	}
	if len(r.Files) > 0 {
		fs := make([]view.File, len(r.Files))
		for k, f := range r.Files {
			f.Description = view.Clip(f.Description, MaxFileDescription)
			fs[k] = f
		}
		r.Files = fs
	}
	if r.Modal != nil {
		m := fitModal(*r.Modal)
		r.Modal = &m
	}
	return r
}

func fitEmbed(e view.Embed) view.Embed {
	e.Title = view.Clip(e.Title, MaxEmbedTitle)
	e.Description = view.Clip(e.Description, MaxEmbedDescription)
	e.Footer = view.Clip(e.Footer, MaxFooter)
	if len(e.Fields) > MaxFields {
		e.Fields = e.Fields[:MaxFields]
	}
	fs := make([]view.Field, len(e.Fields))
	for k, f := range e.Fields {
		fs[k] = view.Field{Name: view.Clip(f.Name, MaxFieldName), Value: view.Clip(f.Value, MaxFieldValue), Inline: f.Inline}
	}
	e.Fields = fs
	total := func() int {
		t := runes(e.Title) + runes(e.Description) + runes(e.Footer)
		for _, f := range e.Fields {
			t += runes(f.Name) + runes(f.Value)
		}
		return t
	}
	// Over the total: the description gives way first (it holds the
	// longest text), then fields from the end, then the footer.
	if over := total() - MaxEmbedTotal; over > 0 {
		e.Description = view.Clip(e.Description, max(0, runes(e.Description)-over))
	}
	for total() > MaxEmbedTotal && len(e.Fields) > 0 {
		e.Fields = e.Fields[:len(e.Fields)-1]
	}
	if over := total() - MaxEmbedTotal; over > 0 {
		e.Footer = view.Clip(e.Footer, max(0, runes(e.Footer)-over))
	}
	return e
}

func fitComponents(rows [][]view.Component) [][]view.Component {
	if rows == nil {
		return nil
	}
	out := make([][]view.Component, 0, min(len(rows), MaxRows))
	for _, row := range rows {
		if len(out) == MaxRows {
			break
		}
		var fr []view.Component
		for _, c := range row {
			if c.Style == view.Link && c.Kind == view.Button {
				// A link button has a URL (at most 512 characters) instead.
				if !exact(c.URL, 512) || c.CustomID != "" {
					continue
				}
			} else if !exact(c.CustomID, MaxCustomID) {
				// Clipping (or mending) would route the click elsewhere.
				continue
			}
			if c.Kind == view.Select {
				m, ok := fitMenu(c)
				if !ok {
					continue
				}
				// A menu fills its row on its own.
				if len(fr) == 0 {
					fr = []view.Component{m}
				}
				break
			}
			if len(fr) == MaxButtonsPerRow {
				break
			}
			c.Label = view.Clip(c.Label, MaxButtonLabel)
			fr = append(fr, c)
		}
		if len(fr) > 0 {
			out = append(out, fr)
		}
	}
	return out
}

func fitMenu(c view.Component) (view.Component, bool) {
	c.Label = view.Clip(c.Label, MaxPlaceholder)
	c.Placeholder = view.Clip(c.Placeholder, MaxPlaceholder)
	opts := make([]view.Option, 0, min(len(c.Options), MaxMenuOptions))
	for _, o := range c.Options {
		if len(opts) == MaxMenuOptions {
			break
		}
		if !exact(o.Value, MaxOptionText) {
			continue // a clipped value would choose something else
		}
		opts = append(opts, view.Option{Label: view.Clip(o.Label, MaxOptionText), Value: o.Value, Description: view.Clip(o.Description, MaxOptionText)})
	}
	c.Options = opts
	return c, len(opts) > 0
}

func fitModal(m view.Modal) view.Modal {
	m.Title = view.Clip(m.Title, MaxModalTitle)
	ins := make([]view.Input, 0, min(len(m.Inputs), MaxModalInputs))
	for _, in := range m.Inputs {
		if len(ins) == MaxModalInputs {
			break
		}
		in.Label = view.Clip(in.Label, MaxInputLabel)
		in.Placeholder = view.Clip(in.Placeholder, MaxInputPlaceholder)
		ins = append(ins, in)
	}
	m.Inputs = ins
	return m
}

// FitChoices returns at most 25 autocomplete choices with names clipped
// to 100 characters; a choice without a value, or whose value is too long
// to insert whole, is left out.
func FitChoices(cs []view.Choice) []view.Choice {
	out := make([]view.Choice, 0, min(len(cs), MaxChoices))
	for _, c := range cs {
		if len(out) == MaxChoices {
			break
		}
		if !exact(c.Value, MaxChoiceText) {
			continue
		}
		name := c.Name
		if name == "" {
			name = c.Value // Discord wants a name of 1-100 characters
		}
		out = append(out, view.Choice{Name: view.Clip(name, MaxChoiceText), Value: c.Value})
	}
	return out
}

// WithoutFiles is r to send again after Discord refused its attachments
// (too large): no files, no embed image, and FallbackText (from the
// catalog) added to the content so the reader learns why.
func WithoutFiles(r view.Reply) view.Reply {
	r.Files = nil
	if r.Embed != nil {
		e := *r.Embed
		e.Image = ""
		r.Embed = &e
	}
	if r.FallbackText != "" {
		if r.Content != "" {
			r.Content += "\n"
		}
		r.Content = view.Clip(r.Content+r.FallbackText, MaxContent)
	}
	return r
}
