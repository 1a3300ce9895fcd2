package app

import (
	"bytes"
	"context"
	"errors"
	"strconv"
	"strings"
	"time"

	"github.com/tankbot/tankbot/bot/i18n"
	"github.com/tankbot/tankbot/bot/rating"
	"github.com/tankbot/tankbot/bot/tournament"
	"github.com/tankbot/tankbot/bot/tournament/director"
	"github.com/tankbot/tankbot/engine"
	"github.com/tankbot/tankbot/store"
)

var tournamentCmd = command{
	name: "tournament",
	doc: "Tournaments in the server (docs/tournaments.md), one subcommand per action (the console writes it `action:create`): `create`, `join`, `leave`, `start` (organiser: the creator or Manage Server), " +
		"`standings` (a PNG), `pairings`, `withdraw`, `cancel` (organiser), `export` (the event as a FIDE TRF-16 file). `id`: which tournament (default: the server's latest open one). " +
		"For `create`: `game`, `map`, `clock` as for /challenge, `format` (`round-robin`, `double-round-robin`, `swiss`, `knockout`), `rounds` (Swiss), `rated`, " +
		"`players` (at most), `signup` (sign-up closes after, e.g. `2h`, `1d`), `roundlength` (default `1d`). Round games start by themselves in threads. " +
		"`join` with `level` (1–5, organiser): enters a computer player at that level.",
	opts: []optDef{
		{name: "action", typ: String, required: true, choices: tournamentActions},
		{name: "id", typ: Integer, bounds: atLeast(1)},
		{name: "game", typ: String, choices: gameChoices},
		{name: "map", typ: String, suggest: suggestMaps},
		{name: "clock", typ: String, suggest: suggestClocks},
		{name: "format", typ: String, choices: formatChoices},
		{name: "rounds", typ: Integer, bounds: between(1, tournament.MaxSwissRounds)},
		{name: "rated", typ: Bool},
		{name: "players", typ: Integer, bounds: between(2, tournament.MaxEntrants)},
		{name: "signup", typ: String},
		{name: "roundlength", typ: String},
		{name: "level", typ: Integer, bounds: between(minAILevel, maxAILevel)},
	},
	subs: []subDef{
		{name: "create", opts: []string{"game", "map", "clock", "format", "rounds", "rated", "players", "signup", "roundlength"}},
		{name: "join", opts: []string{"id", "level"}},
		{name: "leave", opts: []string{"id"}},
		{name: "start", opts: []string{"id"}},
		{name: "standings", opts: []string{"id"}},
		{name: "pairings", opts: []string{"id"}},
		{name: "withdraw", opts: []string{"id"}},
		{name: "cancel", opts: []string{"id"}},
		{name: "export", opts: []string{"id"}},
	},
	run: (*Bot).tournament,
}

var tournamentActionNames = []string{"create", "join", "leave", "start", "standings", "pairings", "withdraw", "cancel", "export"}

func tournamentActions() []Choice {
	var out []Choice
	for _, a := range tournamentActionNames {
		out = append(out, Choice{Name: i18n.T(i18n.English, "tournament.action."+a), Value: a, NameLocalizations: localized("tournament.action." + a)})
	}
	return out
}

func formatChoices() []Choice {
	var out []Choice
	for _, f := range []tournament.Format{tournament.RoundRobin, tournament.DoubleRoundRobin, tournament.Swiss, tournament.Knockout} {
		out = append(out, Choice{Name: formatName(i18n.English, f), Value: string(f), NameLocalizations: localized(formatKeyPrefix + string(f))})
	}
	return out
}

// tournament handles /tournament <action>.
func (b *Bot) tournament(ctx context.Context, r *req) ([]Reply, error) {
	if r.GuildID == "" {
		return nil, refuse("tournament.err.noguild")
	}
	action := strings.ToLower(strings.TrimSpace(r.Options["action"]))
	if action == "create" {
		return b.tournamentCreate(ctx, r)
	}
	ev, err := b.findTournament(ctx, r)
	if err != nil {
		return nil, err
	}
	d, id := b.director(), ev.Row.ID
	num := strconv.FormatInt(id, 10)
	actor := tournament.Actor{ID: r.User.ID, ManageServer: r.ManageServer}
	pub := r.public()
	switch action {
	case "join":
		if r.Options["level"] != "" {
			return b.joinComputer(ctx, r, ev, actor)
		}
		e := store.TournamentEntrant{Player: r.User.ID, Name: PlainText(r.User.Name), Rating: b.seedRating(ctx, r.GuildID, ev.Row.Kind, r.User.ID)}
		if err := d.JoinAs(ctx, id, e); err != nil {
			return nil, tournamentRefusal(err)
		}
		return []Reply{{Content: pub.t("tournament.joined", r.User.Name, num)}}, nil
	case "leave":
		if err := d.Leave(ctx, id, r.User.ID); err != nil {
			return nil, tournamentRefusal(err)
		}
		return []Reply{{Content: pub.t("tournament.left", r.User.Name, num)}}, nil
	case "start":
		ps, err := d.Start(ctx, id, actor)
		if err != nil {
			return nil, tournamentRefusal(err)
		}
		ev, err = d.Load(ctx, id)
		if err != nil {
			return nil, wrap("load tournament", err)
		}
		out := []Reply{{Content: pub.t("tournament.started", num, strconv.Itoa(len(ev.T.Entrants)))}}
		return append(out, b.startPairings(ctx, ev, ps, r.pub)...), nil
	case "cancel":
		if err := d.Cancel(ctx, id, actor); err != nil {
			return nil, tournamentRefusal(err)
		}
		return []Reply{{Content: pub.t("tournament.cancelled", num)}}, nil
	case "withdraw":
		decided, err := d.Withdraw(ctx, id, r.User.ID)
		if err != nil {
			return nil, tournamentRefusal(err)
		}
		out := []Reply{{Content: pub.t("tournament.withdrew", r.User.Name, num)}}
		for _, p := range decided {
			if g := b.endDecided(ctx, p, engine.ReasonResignation, nil); g != nil {
				// The opponent learns it in the game's place, by a ping.
				other := g.White
				if other.ID == r.User.ID {
					other = g.Black
				}
				out = append(out, Reply{ChannelID: g.ChannelID, Mentions: []string{other.ID},
					Content: pub.t("tournament.forfeitwin", mention(other.ID), g.Num(), r.User.Name)})
			}
		}
		// The forfeit may have been the round's last game.
		if u, err := d.AdvanceIfOver(ctx, id); err != nil {
			b.log.Warn("advance after withdrawal", "tournament", id, "err", err)
		} else if u.Paired != nil || u.Finished {
			b.announce(ctx, u)
		}
		return out, nil
	case "standings":
		return b.standingsReply(ctx, r, ev)
	case "pairings":
		return []Reply{{Content: b.pairingsText(ctx, r.loc, ev)}}, nil
	case "export":
		var buf bytes.Buffer
		if err := ev.TRF(&buf); err != nil {
			return nil, wrap("export tournament", err)
		}
		return []Reply{{Ephemeral: true, Content: r.t("tournament.export", num),
			Files: []File{{Name: "tournament-" + num + ".trf", ContentType: "text/plain; charset=utf-8", Data: buf.Bytes()}}}}, nil
	}
	return nil, refuse("tournament.err.action", action)
}

// tournamentCreate handles /tournament create.
func (b *Bot) tournamentCreate(ctx context.Context, r *req) ([]Reply, error) {
	opt := r.Options
	rules, variant, start, tc, err := b.gameOptions(r)
	if err != nil {
		return nil, err
	}
	s := tournament.Settings{Format: tournament.Format(strings.ToLower(strings.TrimSpace(opt["format"]))), RoundLength: 24 * time.Hour}
	if s.Format == "" {
		s.Format = tournament.RoundRobin
	}
	if v := opt["rounds"]; v != "" {
		if s.SwissRounds, err = strconv.Atoi(v); err != nil {
			return nil, refuse("tournament.err.number", "rounds", v)
		}
	}
	if v := opt["players"]; v != "" {
		if s.MaxPlayers, err = strconv.Atoi(v); err != nil {
			return nil, refuse("tournament.err.number", "players", v)
		}
		// Given, the limit must be one (0 is not "unlimited").
		if err := tournament.CheckMaxPlayers(s.Format, s.MaxPlayers); err != nil {
			return nil, tournamentRefusal(err)
		}
	}
	if v := strings.TrimSpace(opt["roundlength"]); v != "" {
		var ok bool
		if s.RoundLength, ok = parseSpan(v); !ok {
			return nil, refuse("tournament.err.span", v)
		}
	}
	if v := strings.TrimSpace(opt["signup"]); v != "" {
		span, ok := parseSpan(v)
		if !ok {
			return nil, refuse("tournament.err.span", v)
		}
		s.SignUpDeadline = b.clk.Now().Add(span)
	}
	where := variant
	if where == "" {
		where = start
	}
	row := store.Tournament{Guild: r.GuildID, Channel: r.ChannelID, Creator: r.User.ID, Kind: rules.Name(), Variant: where,
		Clock: tc.String(), Rated: opt["rated"] != "false"}
	ev, err := b.director().Create(ctx, row, s)
	if err != nil {
		return nil, tournamentRefusal(err)
	}
	pub := r.public()
	text := pub.t("tournament.created", r.User.Name, strconv.FormatInt(ev.Row.ID, 10), formatName(pub.loc, s.Format),
		labelOf(pub.loc, rules.Name(), variant, start), describeClock(pub.loc, tc))
	if !s.SignUpDeadline.IsZero() {
		text += "\n" + pub.t("tournament.signupuntil", discordTime(s.SignUpDeadline))
	}
	return []Reply{{Content: text}}, nil
}

// maxSpan bounds sign-up and round lengths (the refusal says so): a
// larger one would overflow the stored deadline.
const maxSpan = 60 * 24 * time.Hour

// parseSpan reads a duration from 1 ns to maxSpan: Go's ("90m", "2h") or
// whole days ("3d").
func parseSpan(s string) (time.Duration, bool) {
	if d, ok := strings.CutSuffix(s, "d"); ok {
		n, err := strconv.Atoi(d)
		return time.Duration(n) * 24 * time.Hour, err == nil && n > 0 && n <= int(maxSpan/(24*time.Hour))
	}
	v, err := time.ParseDuration(s)
	return v, err == nil && v > 0 && v <= maxSpan
}

// findTournament is the tournament the id option names, else the server's
// latest one not over.
func (b *Bot) findTournament(ctx context.Context, r *req) (*director.Event, error) {
	d := b.director()
	if v := r.Options["id"]; v != "" {
		id, err := strconv.ParseInt(v, 10, 64)
		if err != nil {
			return nil, refuse("tournament.err.none")
		}
		ev, err := d.Load(ctx, id)
		if errors.Is(err, store.ErrNotFound) || err == nil && ev.Row.Guild != r.GuildID {
			return nil, refuse("tournament.err.none")
		}
		if err != nil {
			return nil, wrap("load tournament", err)
		}
		return ev, nil
	}
	ts, err := b.st.GuildTournaments(ctx, r.GuildID)
	if err != nil {
		return nil, wrap("guild tournaments", err)
	}
	// The store lists the open and running ones, oldest first.
	if len(ts) == 0 {
		return nil, refuse("tournament.err.none")
	}
	pick := ts[len(ts)-1]
	ev, err := d.Load(ctx, pick.ID)
	if err != nil {
		return nil, wrap("load tournament", err)
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
				return refuse(e.key, strings.TrimPrefix(err.Error(), tournament.ErrBadSettings.Error()+": "))
			}
			return refuse(e.key)
		}
	}
	return wrap("tournament", err)
}

// joinComputer handles /tournament join level:N.
func (b *Bot) joinComputer(ctx context.Context, r *req, ev *director.Event, a tournament.Actor) ([]Reply, error) {
	if !ev.T.IsOrganiser(a) {
		return nil, refuse("tournament.err.organiser")
	}
	if r.guild.NoAI {
		return nil, refuse("server.noai")
	}
	v := r.Options["level"]
	level, err := strconv.Atoi(v)
	if err != nil || level < minAILevel || level > maxAILevel {
		return nil, refuse("refuse.badlevel", v, strconv.Itoa(minAILevel), strconv.Itoa(maxAILevel))
	}
	n := 1
	for _, e := range ev.T.Entrants {
		if strings.HasPrefix(e.Player, computerPrefix) {
			n++
		}
	}
	pub := r.public()
	num, k := strconv.FormatInt(ev.Row.ID, 10), strconv.Itoa(n)
	e := store.TournamentEntrant{Player: computerPrefix + k, Name: pub.t("tournament.ainame", k, strconv.Itoa(level)), AILevel: level,
		Rating: rating.DefaultRating}
	if err := b.director().JoinAs(ctx, ev.Row.ID, e); err != nil {
		return nil, tournamentRefusal(err)
	}
	return []Reply{{Content: pub.t("tournament.joined", markName(e.Name), num)}}, nil
}

func (b *Bot) standingsReply(_ context.Context, r *req, ev *director.Event) ([]Reply, error) {
	if len(ev.T.Entrants) == 0 {
		return nil, refuse("tournament.err.empty")
	}
	return []Reply{{Ephemeral: true, Content: r.t("tournament.standings", strconv.FormatInt(ev.Row.ID, 10)), Files: b.standingsFiles(ev, r.loc),
		FallbackText: r.t("tournament.noimage")}}, nil
}

// pairingsText lists the current round's boards.
func (b *Bot) pairingsText(_ context.Context, loc string, ev *director.Event) string {
	num := strconv.FormatInt(ev.Row.ID, 10)
	if ev.T.Round == 0 {
		return i18n.T(loc, "tournament.nopairings", num)
	}
	lines := append([]string{i18n.T(loc, "tournament.pairings", num, strconv.Itoa(ev.T.Round))}, b.boardLines(loc, ev)...)
	return clipRunes(strings.Join(lines, "\n"), 2000)
}
