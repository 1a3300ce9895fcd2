package view

import (
	"strconv"
	"strings"
)

// Custom ids are stateless so buttons stay valid across restarts:
//
//	g:<gameID>:<seq>:<action>[:<arg>]   game buttons and menus
//	c:<challengeID>:<action>            challenge buttons
//	p:<page>:<list>                     list pages (/games)
//
// The seq pins a game button to the position it was drawn for: the game's
// sequence, which every move and every takeback advances and which never
// goes back, so a takeback followed by another move can never revive an
// old button (the ply would: it returns to the same number). A click whose
// seq no longer matches is stale and refused.

type CustomID struct {
	Kind   byte // 'g', 'c' or 'p'
	ID     int64
	Seq    int
	Action string
	Arg    string
}

func GameID(game int64, seq int, action string, arg ...string) string {
	s := "g:" + strconv.FormatInt(game, 10) + ":" + strconv.Itoa(seq) + ":" + action
	if len(arg) > 0 && arg[0] != "" {
		s += ":" + arg[0]
	}
	return s
}

func ChallengeCustomID(ch int64, action string) string {
	return "c:" + strconv.FormatInt(ch, 10) + ":" + action
}

func ParseCustomID(s string) (CustomID, bool) {
	parts := strings.SplitN(s, ":", 5)
	if len(parts) < 3 {
		return CustomID{}, false
	}
	id, err := strconv.ParseInt(parts[1], 10, 64)
	if err != nil || id <= 0 {
		return CustomID{}, false
	}
	switch parts[0] {
	case "c", "p":
		if len(parts) != 3 {
			return CustomID{}, false
		}
		return CustomID{Kind: parts[0][0], ID: id, Action: parts[2]}, true
	case "g":
		if len(parts) < 4 {
			return CustomID{}, false
		}
		seq, err := strconv.Atoi(parts[2])
		if err != nil || seq < 0 {
			return CustomID{}, false
		}
		c := CustomID{Kind: 'g', ID: id, Seq: seq, Action: parts[3]}
		if len(parts) == 5 {
			c.Arg = parts[4]
		}
		return c, true
	}
	return CustomID{}, false
}

// WithText is r with text applied to what Discord renders as markdown
// (content, embed title, description and fields) and label to the plain
// strings (footer, buttons, menus, forms, the no-image note). Transports
// call it at output: the Discord adapter with the names escaped, the
// console with PlainText for both.
func (r Reply) WithText(text, label func(string) string) Reply {
	r.Content = text(r.Content)
	r.FallbackText = label(r.FallbackText)
	if r.Embed != nil {
		e := *r.Embed
		e.Title, e.Description, e.Footer = text(e.Title), text(e.Description), label(e.Footer)
		e.Fields = append([]Field(nil), e.Fields...)
		for i, f := range e.Fields {
			e.Fields[i].Name, e.Fields[i].Value = text(f.Name), text(f.Value)
		}
		r.Embed = &e
	}
	if len(r.Components) > 0 {
		rows := make([][]Component, len(r.Components))
		for i, row := range r.Components {
			rows[i] = append([]Component(nil), row...)
			for j := range rows[i] {
				c := &rows[i][j]
				c.Label, c.Placeholder = label(c.Label), label(c.Placeholder)
				c.Options = append([]Option(nil), c.Options...)
				for k := range c.Options {
					c.Options[k].Label, c.Options[k].Description = label(c.Options[k].Label), label(c.Options[k].Description)
				}
			}
		}
		r.Components = rows
	}
	if r.Modal != nil {
		m := *r.Modal
		m.Title = label(m.Title)
		m.Inputs = append([]Input(nil), m.Inputs...)
		for i := range m.Inputs {
			m.Inputs[i].Label, m.Inputs[i].Placeholder = label(m.Inputs[i].Label), label(m.Inputs[i].Placeholder)
		}
		r.Modal = &m
	}
	return r
}
