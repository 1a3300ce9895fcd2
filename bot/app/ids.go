package app

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
	Kind      byte // 'g', 'c' or 'p'
	Id        int64
	Seq       int
	ActionDef string
	Arg       string
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
		return CustomID{Kind: parts[0][0], Id: id, ActionDef: parts[2]}, true
	case "g":
		if len(parts) < 4 {
			return CustomID{}, false
		}
		seq, err := strconv.Atoi(parts[2])
		if err != nil || seq < 0 {
			return CustomID{}, false
		}
		c := CustomID{Kind: 'g', Id: id, Seq: seq, ActionDef: parts[3]}
		if len(parts) == 5 {
			c.Arg = parts[4]
		}
		return c, true
	}
	return CustomID{}, false
}
