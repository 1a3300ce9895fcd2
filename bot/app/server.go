package app

import (
	"slices"
	"strconv"
	"strings"

	"github.com/tankbot/tankbot/bot/i18n"
	"github.com/tankbot/tankbot/engine"
	"github.com/tankbot/tankbot/store"
)

// serverSummary lists the server's settings in the reader's language, as
// /server and /help show them.
func (b *Bot) serverSummary(r *req, gs store.GuildSettings, links bool) string {
	onOff := func(on bool) string {
		if on {
			return r.t("server.on")
		}
		return r.t("server.off")
	}
	lang := r.t("server.auto")
	if gs.Locale != "" {
		lang = i18n.T(gs.Locale, "language.name")
	}
	game := gs.Game
	if game == "" {
		game = defaultGame()
	}
	clk := gs.Clock
	if clk == "" {
		clk = r.t("server.gamedefault")
	}
	thread := b.cfg.ThreadPerGame
	if gs.Thread != nil {
		thread = *gs.Thread
	}
	games := r.t("server.anychannel")
	if gs.GamesChannel != "" {
		games = channelMention(gs.GamesChannel)
	}
	who := r.t("server.everyone")
	if gs.ChallengeRole != "" {
		who = "<@&" + gs.ChallengeRole + ">"
	}
	maps := r.t("server.gamedefault")
	if len(gs.Variants) > 0 {
		var parts []string
		for _, g := range gameNames() {
			if v := gs.Variants[g]; v != "" {
				parts = append(parts, gameLabel(r.loc, g, "x", nil)+": "+v)
			}
		}
		maps = strings.Join(parts, ", ")
	}
	daily := r.t("server.off")
	if gs.DailyChannel != "" {
		daily = r.t("server.dailyat", channelMention(gs.DailyChannel), strconv.Itoa(gs.DailyHour))
	}
	return r.t("server.summary", lang, gameLabel(r.loc, game, "x", nil), clk, onOff(thread), onOff(links), onOff(!gs.NoAI)) + "\n" +
		r.t("server.summary2", games, who, maps, daily)
}

func channelMention(id string) string { return "<#" + id + ">" }

// serverMap is the server's default map of rules' game when it is still
// one of the game's variants ("" otherwise: the game's own default).
func serverMap(r *req, rules engine.Rules) string {
	v := r.guild.Variants[rules.Name()]
	for _, x := range rules.Variants() {
		if v != "" && x.Name == v {
			return v
		}
	}
	return ""
}

// mayChallenge refuses /challenge where the server does not allow it:
// outside its channel for games (threads of it are inside), or to a
// member without the role it asks for (members with Manage Server always
// may).
func mayChallenge(r *req) error {
	gs := r.guild
	if r.GuildID == "" {
		return nil
	}
	if c := gs.GamesChannel; c != "" && r.ChannelID != c && r.ParentID != c {
		return refuse("server.gameschannel", channelMention(c))
	}
	if role := gs.ChallengeRole; role != "" && !r.ManageServer && !slices.Contains(r.Roles, role) {
		return refuse("server.needrole", "<@&"+role+">")
	}
	return nil
}
