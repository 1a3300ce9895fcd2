package app

import (
	"slices"
	"strconv"
	"strings"

	"github.com/tankbot/tankbot/bot/i18n"
	"github.com/tankbot/tankbot/bot/view"
	"github.com/tankbot/tankbot/engine"
	"github.com/tankbot/tankbot/store"
)

// ServerSummary lists the server's settings in the reader's language, as
// /server and /help show them.
func (b *Bot) ServerSummary(r *Req, gs store.GuildSettings, links bool) string {
	onOff := func(on bool) string {
		if on {
			return r.T("server.on")
		}
		return r.T("server.off")
	}
	lang := r.T("server.auto")
	if gs.Locale != "" {
		lang = i18n.T(gs.Locale, "language.name")
	}
	game := gs.Game
	if game == "" {
		game = DefaultGame()
	}
	clk := gs.Clock
	if clk == "" {
		clk = r.T("server.gamedefault")
	}
	thread := b.Cfg.ThreadPerGame
	if gs.Thread != nil {
		thread = *gs.Thread
	}
	games := r.T("server.anychannel")
	if gs.GamesChannel != "" {
		games = ChannelMention(gs.GamesChannel)
	}
	who := r.T("server.everyone")
	if gs.ChallengeRole != "" {
		who = "<@&" + gs.ChallengeRole + ">"
	}
	maps := r.T("server.gamedefault")
	if len(gs.Variants) > 0 {
		var parts []string
		for _, g := range GameNames() {
			if v := gs.Variants[g]; v != "" {
				parts = append(parts, view.GameLabel(r.Locale(), g, "x", nil)+": "+v)
			}
		}
		maps = strings.Join(parts, ", ")
	}
	daily := r.T("server.off")
	if gs.DailyChannel != "" {
		daily = r.T("server.dailyat", ChannelMention(gs.DailyChannel), strconv.Itoa(gs.DailyHour))
	}
	return r.T("server.summary", lang, view.GameLabel(r.Locale(), game, "x", nil), clk, onOff(thread), onOff(links), onOff(!gs.NoAI)) + "\n" +
		r.T("server.summary2", games, who, maps, daily)
}

func ChannelMention(id string) string { return "<#" + id + ">" }

// serverMap is the server's default map of rules' game when it is still
// one of the game's variants ("" otherwise: the game's own default).
func serverMap(r *Req, rules engine.Rules) string {
	v := r.Server().Variants[rules.Name()]
	for _, x := range rules.Variants() {
		if v != "" && x.Name == v {
			return v
		}
	}
	return ""
}

// MayChallenge refuses /challenge where the server does not allow it:
// outside its channel for games (threads of it are inside), or to a
// member without the role it asks for (members with Manage Server always
// may).
func MayChallenge(r *Req) error {
	gs := r.Server()
	if r.GuildID == "" {
		return nil
	}
	if c := gs.GamesChannel; c != "" && r.ChannelID != c && r.ParentID != c {
		return Refuse("server.gameschannel", ChannelMention(c))
	}
	if role := gs.ChallengeRole; role != "" && !r.ManageServer && !slices.Contains(r.Roles, role) {
		return Refuse("server.needrole", "<@&"+role+">")
	}
	return nil
}
