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

type customID struct {
	kind   byte // 'g', 'c' or 'p'
	id     int64
	seq    int
	action string
	arg    string
}

func gameID(game int64, seq int, action string, arg ...string) string {
	s := "g:" + strconv.FormatInt(game, 10) + ":" + strconv.Itoa(seq) + ":" + action
	if len(arg) > 0 && arg[0] != "" {
		s += ":" + arg[0]
	}
	return s
}

func challengeCustomID(ch int64, action string) string {
	return "c:" + strconv.FormatInt(ch, 10) + ":" + action
}

func parseCustomID(s string) (customID, bool) {
	parts := strings.SplitN(s, ":", 5)
	if len(parts) < 3 {
		return customID{}, false
	}
	id, err := strconv.ParseInt(parts[1], 10, 64)
	if err != nil || id <= 0 {
		return customID{}, false
	}
	switch parts[0] {
	case "c", "p":
		if len(parts) != 3 {
			return customID{}, false
		}
		return customID{kind: parts[0][0], id: id, action: parts[2]}, true
	case "g":
		if len(parts) < 4 {
			return customID{}, false
		}
		seq, err := strconv.Atoi(parts[2])
		if err != nil || seq < 0 {
			return customID{}, false
		}
		c := customID{kind: 'g', id: id, seq: seq, action: parts[3]}
		if len(parts) == 5 {
			c.arg = parts[4]
		}
		return c, true
	}
	return customID{}, false
}
