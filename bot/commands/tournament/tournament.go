// Package tournament holds /tournament and its subcommands (create, join,
// leave, start, standings, pairings, withdraw, cancel, export); running
// the tournaments is bot/app's (tournament.go) and the director's.
package tournament

import (
	"bytes"
	"context"
	"errors"
	"strconv"
	"strings"
	"time"

	"github.com/tankbot/tankbot/bot/app"
	"github.com/tankbot/tankbot/bot/names"
	"github.com/tankbot/tankbot/bot/view"

	"github.com/tankbot/tankbot/bot/i18n"
	"github.com/tankbot/tankbot/bot/rating"
	"github.com/tankbot/tankbot/bot/tournament"
	"github.com/tankbot/tankbot/bot/tournament/director"
	"github.com/tankbot/tankbot/engine"
	"github.com/tankbot/tankbot/store"
)

var Command = app.CommandDef{
	Name: "tournament",
	Doc: "Tournaments in the server (docs/tournaments.md), one subcommand per action (the console writes it `action:create`): `create`, `join`, `leave`, `start` (organiser: the creator or Manage Server), " +
		"`standings` (a PNG), `pairings`, `withdraw`, `cancel` (organiser), `export` (the event as a FIDE TRF-16 file). `id`: which tournament (default: the server's latest open one). " +
		"For `create`: `game`, `map`, `clock` as for /challenge, `format` (`round-robin`, `double-round-robin`, `swiss`, `knockout`), `rounds` (Swiss), `rated`, " +
		"`players` (at most), `signup` (sign-up closes after, e.g. `2h`, `1d`), `roundlength` (default `1d`). Round games start by themselves in threads. " +
		"`join` with `level` (1–5, organiser): enters a computer player at that level.",
	Opts: []app.OptDef{
		{Name: "action", Typ: app.String, Required: true, Choices: tournamentActions},
		{Name: "id", Typ: app.Integer, Bounds: app.AtLeast(1)},
		{Name: "game", Typ: app.String, Choices: app.GameChoices},
		{Name: "map", Typ: app.String, Suggest: app.SuggestMaps},
		{Name: "clock", Typ: app.String, Suggest: app.SuggestClocks},
		{Name: "format", Typ: app.String, Choices: formatChoices},
		{Name: "rounds", Typ: app.Integer, Bounds: app.Between(1, tournament.MaxSwissRounds)},
		{Name: "rated", Typ: app.Bool},
		{Name: "players", Typ: app.Integer, Bounds: app.Between(2, tournament.MaxEntrants)},
		{Name: "signup", Typ: app.String},
		{Name: "roundlength", Typ: app.String},
		{Name: "level", Typ: app.Integer, Bounds: app.Between(app.MinAILevel, app.MaxAILevel)},
	},
	Subs: []app.SubDef{
		{Name: "create", Opts: []string{"game", "map", "clock", "format", "rounds", "rated", "players", "signup", "roundlength"}},
		{Name: "join", Opts: []string{"id", "level"}},
		{Name: "leave", Opts: []string{"id"}},
		{Name: "start", Opts: []string{"id"}},
		{Name: "standings", Opts: []string{"id"}},
		{Name: "pairings", Opts: []string{"id"}},
		{Name: "withdraw", Opts: []string{"id"}},
		{Name: "cancel", Opts: []string{"id"}},
		{Name: "export", Opts: []string{"id"}},
	},
	ServerOnly: "place.serveronly.tournament",
	Run:        tournamentCommand,
}

func tournamentActions() []view.Choice {
	var out []view.Choice
	for _, a := range app.TournamentActionNames {
		out = append(out, view.Choice{Name: i18n.T(i18n.English, "tournament.action."+a), Value: a, NameLocalizations: app.Localized("tournament.action." + a)})
	}
	return out
}

func formatChoices() []view.Choice {
	var out []view.Choice
	for _, f := range []tournament.Format{tournament.RoundRobin, tournament.DoubleRoundRobin, tournament.Swiss, tournament.Knockout} {
		out = append(out, view.Choice{Name: app.FormatName(i18n.English, f), Value: string(f), NameLocalizations: app.Localized(app.FormatKeyPrefix + string(f))})
	}
	return out
}

// tournament handles /tournament <action>.
func tournamentCommand(b *app.Bot, ctx context.Context, r *app.Req) ([]view.Reply, error) {
	if r.GuildID == "" {
		return nil, app.Refuse("tournament.err.noguild")
	}
	action := strings.ToLower(strings.TrimSpace(r.Options["action"]))
	if action == "create" {
		return tournamentCreate(b, ctx, r)
	}
	ev, err := findTournament(b, ctx, r)
	if err != nil {
		return nil, err
	}
	d, id := b.Director(), ev.Row.ID
	num := strconv.FormatInt(id, 10)
	actor := tournament.Actor{ID: r.User.ID, ManageServer: r.ManageServer}
	pub := r.Public()
	switch action {
	case "join":
		if r.Options["level"] != "" {
			return joinComputer(b, ctx, r, ev, actor)
		}
		e := store.TournamentEntrant{Player: r.User.ID, Name: names.PlainText(r.User.Name), Rating: b.SeedRating(ctx, r.GuildID, ev.Row.Kind, r.User.ID)}
		if err := d.JoinAs(ctx, id, e); err != nil {
			return nil, tournamentRefusal(err)
		}
		return []view.Reply{{Content: pub.T("tournament.joined", r.User.Name, num)}}, nil
	case "leave":
		if err := d.Leave(ctx, id, r.User.ID); err != nil {
			return nil, tournamentRefusal(err)
		}
		return []view.Reply{{Content: pub.T("tournament.left", r.User.Name, num)}}, nil
	case "start":
		ps, err := d.Start(ctx, id, actor)
		if err != nil {
			return nil, tournamentRefusal(err)
		}
		ev, err = d.Load(ctx, id)
		if err != nil {
			return nil, app.Wrap("load tournament", err)
		}
		out := []view.Reply{{Content: pub.T("tournament.started", num, strconv.Itoa(len(ev.T.Entrants)))}}
		return append(out, b.StartPairings(ctx, ev, ps, r.PubLoc())...), nil
	case "cancel":
		if err := d.Cancel(ctx, id, actor); err != nil {
			return nil, tournamentRefusal(err)
		}
		return []view.Reply{{Content: pub.T("tournament.cancelled", num)}}, nil
	case "withdraw":
		decided, err := d.Withdraw(ctx, id, r.User.ID)
		if err != nil {
			return nil, tournamentRefusal(err)
		}
		out := []view.Reply{{Content: pub.T("tournament.withdrew", r.User.Name, num)}}
		for _, p := range decided {
			if g := b.EndDecided(ctx, p, engine.ReasonResignation, nil); g != nil {
				// The opponent learns it in the game's place, by a ping.
				other := g.White
				if other.ID == r.User.ID {
					other = g.Black
				}
				out = append(out, view.Reply{ChannelID: g.ChannelID, Mentions: []string{other.ID},
					Content: pub.T("tournament.forfeitwin", view.Mention(other.ID), g.Num(), r.User.Name)})
			}
		}
		// The forfeit may have been the round's last game.
		if u, err := d.AdvanceIfOver(ctx, id); err != nil {
			b.Log.Warn("advance after withdrawal", "tournament", id, "err", err)
		} else if u.Paired != nil || u.Finished {
			b.Announce(ctx, u)
		}
		return out, nil
	case "standings":
		return standingsReply(b, ctx, r, ev)
	case "pairings":
		return []view.Reply{{Content: pairingsText(b, ctx, r.Locale(), ev)}}, nil
	case "export":
		var buf bytes.Buffer
		if err := ev.TRF(&buf); err != nil {
			return nil, app.Wrap("export tournament", err)
		}
		return []view.Reply{{Ephemeral: true, Content: r.T("tournament.export", num),
			Files: []view.File{{Name: "tournament-" + num + ".trf", ContentType: "text/plain; charset=utf-8", Data: buf.Bytes()}}}}, nil
	}
	return nil, app.Refuse("tournament.err.action", action)
}

// tournamentCreate handles /tournament create.
func tournamentCreate(b *app.Bot, ctx context.Context, r *app.Req) ([]view.Reply, error) {
	opt := r.Options
	rules, variant, start, tc, err := b.GameOptions(r)
	if err != nil {
		return nil, err
	}
	s := tournament.Settings{Format: tournament.Format(strings.ToLower(strings.TrimSpace(opt["format"]))), RoundLength: 24 * time.Hour}
	if s.Format == "" {
		s.Format = tournament.RoundRobin
	}
	if v := opt["rounds"]; v != "" {
		if s.SwissRounds, err = strconv.Atoi(v); err != nil {
			return nil, app.Refuse("tournament.err.number", "rounds", v)
		}
	}
	if v := opt["players"]; v != "" {
		if s.MaxPlayers, err = strconv.Atoi(v); err != nil {
			return nil, app.Refuse("tournament.err.number", "players", v)
		}
		// Given, the limit must be one (0 is not "unlimited").
		if err := tournament.CheckMaxPlayers(s.Format, s.MaxPlayers); err != nil {
			return nil, tournamentRefusal(err)
		}
	}
	if v := strings.TrimSpace(opt["roundlength"]); v != "" {
		var ok bool
		if s.RoundLength, ok = app.ParseSpan(v); !ok {
			return nil, app.Refuse("tournament.err.span", v)
		}
	}
	if v := strings.TrimSpace(opt["signup"]); v != "" {
		span, ok := app.ParseSpan(v)
		if !ok {
			return nil, app.Refuse("tournament.err.span", v)
		}
		s.SignUpDeadline = b.Clk.Now().Add(span)
	}
	where := variant
	if where == "" {
		where = start
	}
	row := store.Tournament{Guild: r.GuildID, Channel: r.ChannelID, Creator: r.User.ID, Kind: rules.Name(), Variant: where,
		Clock: tc.String(), Rated: opt["rated"] != "false"}
	ev, err := b.Director().Create(ctx, row, s)
	if err != nil {
		return nil, tournamentRefusal(err)
	}
	pub := r.Public()
	text := pub.T("tournament.created", r.User.Name, strconv.FormatInt(ev.Row.ID, 10), app.FormatName(pub.Locale(), s.Format),
		view.LabelOf(pub.Locale(), rules.Name(), variant, start), app.DescribeClock(pub.Locale(), tc))
	if !s.SignUpDeadline.IsZero() {
		text += "\n" + pub.T("tournament.signupuntil", app.DiscordTime(s.SignUpDeadline))
	}
	return []view.Reply{{Content: text}}, nil
}

// findTournament is the tournament the id option names, else the server's
// latest one not over.
func findTournament(b *app.Bot, ctx context.Context, r *app.Req) (*director.Event, error) {
	d := b.Director()
	if v := r.Options["id"]; v != "" {
		id, err := strconv.ParseInt(v, 10, 64)
		if err != nil {
			return nil, app.Refuse("tournament.err.none")
		}
		ev, err := d.Load(ctx, id)
		if errors.Is(err, store.ErrNotFound) || err == nil && ev.Row.Guild != r.GuildID {
			return nil, app.Refuse("tournament.err.none")
		}
		if err != nil {
			return nil, app.Wrap("load tournament", err)
		}
		return ev, nil
	}
	ts, err := b.St.GuildTournaments(ctx, r.GuildID)
	if err != nil {
		return nil, app.Wrap("guild tournaments", err)
	}
	// The store lists the open and running ones, oldest first.
	if len(ts) == 0 {
		return nil, app.Refuse("tournament.err.none")
	}
	pick := ts[len(ts)-1]
	ev, err := d.Load(ctx, pick.ID)
	if err != nil {
		return nil, app.Wrap("load tournament", err)
	}
	return ev, nil
}

// tournamentRefusal turns the director's errors into catalog refusals.
func tournamentRefusal(err error) error {
	for _, e := range []struct {
		err error
		key string
	}{
		{tournament.ErrBadSettings, "tournament.err.settings"},
		{tournament.ErrNotOrganiser, "tournament.err.organiser"},
		{tournament.ErrNotSignUp, "tournament.err.signupclosed"},
		{tournament.ErrSignUpDeadline, "tournament.err.signupclosed"},
		{tournament.ErrAlreadyJoined, "tournament.err.joined"},
		{tournament.ErrNotEntered, "tournament.err.notentered"},
		{tournament.ErrFull, "tournament.err.full"},
		{tournament.ErrTooFewPlayers, "tournament.err.toofew"},
		{tournament.ErrNotRunning, "tournament.err.notrunning"},
		{tournament.ErrCancelled, "tournament.err.cancelled"},
		{tournament.ErrFinished, "tournament.err.finished"},
		{tournament.ErrAlreadyWithdrawn, "tournament.err.withdrawn"},
	} {
		if errors.Is(err, e.err) {
			if e.err == tournament.ErrBadSettings {
				return app.Refuse(e.key, strings.TrimPrefix(err.Error(), tournament.ErrBadSettings.Error()+": "))
			}
			return app.Refuse(e.key)
		}
	}
	return app.Wrap("tournament", err)
}

// joinComputer handles /tournament join level:N.
func joinComputer(b *app.Bot, ctx context.Context, r *app.Req, ev *director.Event, a tournament.Actor) ([]view.Reply, error) {
	if !ev.T.IsOrganiser(a) {
		return nil, app.Refuse("tournament.err.organiser")
	}
	if r.Server().NoAI {
		return nil, app.Refuse("server.noai")
	}
	v := r.Options["level"]
	level, err := strconv.Atoi(v)
	if err != nil || level < app.MinAILevel || level > app.MaxAILevel {
		return nil, app.Refuse("refuse.badlevel", v, strconv.Itoa(app.MinAILevel), strconv.Itoa(app.MaxAILevel))
	}
	n := 1
	for _, e := range ev.T.Entrants {
		if strings.HasPrefix(e.Player, app.ComputerPrefix) {
			n++
		}
	}
	pub := r.Public()
	num, k := strconv.FormatInt(ev.Row.ID, 10), strconv.Itoa(n)
	e := store.TournamentEntrant{Player: app.ComputerPrefix + k, Name: pub.T("tournament.ainame", k, strconv.Itoa(level)), AILevel: level,
		Rating: rating.DefaultRating}
	if err := b.Director().JoinAs(ctx, ev.Row.ID, e); err != nil {
		return nil, tournamentRefusal(err)
	}
	return []view.Reply{{Content: pub.T("tournament.joined", names.MarkName(e.Name), num)}}, nil
}

func standingsReply(b *app.Bot, _ context.Context, r *app.Req, ev *director.Event) ([]view.Reply, error) {
	if len(ev.T.Entrants) == 0 {
		return nil, app.Refuse("tournament.err.empty")
	}
	return []view.Reply{{Ephemeral: true, Content: r.T("tournament.standings", strconv.FormatInt(ev.Row.ID, 10)), Files: b.StandingsFiles(ev, r.Locale()),
		FallbackText: r.T("tournament.noimage")}}, nil
}

// pairingsText lists the current round's boards.
func pairingsText(b *app.Bot, _ context.Context, loc string, ev *director.Event) string {
	num := strconv.FormatInt(ev.Row.ID, 10)
	if ev.T.Round == 0 {
		return i18n.T(loc, "tournament.nopairings", num)
	}
	lines := append([]string{i18n.T(loc, "tournament.pairings", num, strconv.Itoa(ev.T.Round))}, b.BoardLines(loc, ev)...)
	return view.ClipRunes(strings.Join(lines, "\n"), 2000)
}
