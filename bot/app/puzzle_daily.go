package app

import (
	"context"
	"errors"
	"hash/fnv"
	"strconv"
	"strings"
	"time"

	"github.com/tankbot/tankbot/bot/i18n"
	"github.com/tankbot/tankbot/bot/outbox"
	"github.com/tankbot/tankbot/bot/view"
	"github.com/tankbot/tankbot/engine"
	"github.com/tankbot/tankbot/engine/puzzle"
	"github.com/tankbot/tankbot/store"
)

// The daily puzzle (docs/puzzles.md): a server that names a channel
// (/server daily_channel, daily_hour) gets one public puzzle there every
// day at that hour (UTC), with a Solve button that opens it privately as
// /puzzle does. The next day's post names who solved it and how long
// after the post.
//
// Timing is one pending evDaily event per server (ref: guildRef), moved
// by /server and replaced by each firing with the next day's, in the
// transaction that records the day's post (store.PostDaily). The post's
// (server, day) key makes it happen once even when several instances, or
// a retried lease, fire the same day.

// evDaily is the daily puzzle's event kind; its Arg is the server id.
const evDaily = "daily"

// recentDailies is how many past daily puzzles of a server the choice
// avoids (the pool is larger).
const recentDailies = 60

// maxSolversNamed bounds the solvers a post names; the rest are counted.
const maxSolversNamed = 30

var DailyRoute = RouteDef{Prefix: "dp", Format: "dp:<day>",
	Doc: "Solve on the server's daily puzzle (set up by /server): opens that puzzle just for you, answered with /puzzle move.",
	Run: (*Bot).dailySolve}

// guildRef is the events' ref of a server: its snowflake (an id that is
// not one is hashed). Never 0, which means "the row being written".
func guildRef(guild string) int64 {
	if n, err := strconv.ParseInt(guild, 10, 64); err == nil && n > 0 {
		return n
	}
	h := fnv.New64a()
	h.Write([]byte(guild))
	return int64(h.Sum64()>>1) | 1
}

// dailySlot is the last time at or before t that the clock of UTC read
// hour:00, when the day's puzzle is due.
func dailySlot(t time.Time, hour int) time.Time {
	t = t.UTC()
	s := time.Date(t.Year(), t.Month(), t.Day(), hour, 0, 0, 0, time.UTC)
	if s.After(t) {
		s = s.AddDate(0, 0, -1)
	}
	return s
}

// DailyEffects move the server's daily event after a change of its
// channel or hour: the pending one dropped, the next slot's scheduled
// (none when the daily puzzle is off).
func (b *Bot) DailyEffects(gs store.GuildSettings) store.Effects {
	ref := guildRef(gs.Guild)
	eff := store.Effects{Cancel: []store.EventFilter{{Ref: ref, Kinds: []string{evDaily}}}}
	if gs.DailyChannel != "" {
		due := dailySlot(b.Clk.Now(), gs.DailyHour).Add(24 * time.Hour)
		eff.Schedule = []store.Event{{Kind: evDaily, Ref: ref, Due: due, Payload: gs.Guild}}
	}
	return eff
}

// dailyGame is the game of a server's daily puzzle: its default game
// when puzzles exist for it, else the first game that has them.
func dailyGame(gs store.GuildSettings) (string, []*puzzle.Puzzle, error) {
	for _, g := range append([]string{gs.Game, DefaultGame()}, puzzle.Games...) {
		if g == "" {
			continue
		}
		if ps, err := puzzle.Shipped(g); err == nil && len(ps) > 0 {
			return g, ps, nil
		}
	}
	return "", nil, errors.New("no shipped puzzles")
}

// chooseDaily picks the puzzle of a server's day: a hash of both picks a
// place in the pool, and the first puzzle from there that the server had
// not had recently is the one. The same server and day always get the
// same puzzle, whichever instance chooses.
func chooseDaily(ps []*puzzle.Puzzle, guild, day string, recent map[string]bool) *puzzle.Puzzle {
	h := fnv.New64a()
	h.Write([]byte(guild + "/" + day))
	n := uint64(len(ps))
	start := h.Sum64() % n
	for i := uint64(0); i < n; i++ {
		if p := ps[(start+i)%n]; !recent[p.ID] {
			return p
		}
	}
	return ps[start]
}

// dailyFire posts a server's puzzle of the day (once) and schedules the
// next day's event.
func (b *Bot) dailyFire(ctx context.Context, e Event) error {
	st := b.St
	if st == nil {
		return nil
	}
	guild := e.Arg
	gs, err := st.GuildSettings(ctx, guild)
	if err != nil {
		return err
	}
	if gs.DailyChannel == "" {
		return nil // turned off since: nothing more is scheduled
	}
	slot := dailySlot(b.Clk.Now(), gs.DailyHour)
	day := slot.Format(time.DateOnly)
	game, ps, err := dailyGame(gs)
	if err != nil {
		return err
	}
	recent, err := st.RecentDailies(ctx, guild, recentDailies)
	if err != nil {
		return err
	}
	seen := map[string]bool{}
	var prev *store.DailyPost
	for i, p := range recent {
		if p.Day == day {
			continue
		}
		seen[p.PuzzleID] = true
		if prev == nil && p.Day < day {
			prev = &recent[i]
		}
	}
	pz := chooseDaily(ps, guild, day, seen)
	loc := gs.Locale
	if loc == "" {
		loc = b.Cfg.DefaultLocale
	}
	reply, err := b.dailyPost(ctx, loc, guild, gs.DailyChannel, day, pz, prev, slot)
	if err != nil {
		return err
	}
	posts := []outbox.Post{reply}
	if prev != nil && prev.MessageID != "" {
		// Only the current puzzle has a live button: yesterday's post
		// loses its Solve (an edit, notifying nobody).
		posts = append(posts, outbox.Edit(view.Reply{ChannelID: prev.Channel}, prev.MessageID))
	}
	eff, err := toEffects(Effects{Posts: posts})
	if err != nil {
		return err
	}
	next := store.Event{Kind: evDaily, Ref: guildRef(guild), Due: slot.Add(24 * time.Hour), Payload: guild}
	fresh, err := st.PostDaily(ctx, store.DailyPost{Guild: guild, Day: day, Game: game, PuzzleID: pz.ID, Channel: gs.DailyChannel, Posted: slot}, next, eff)
	if err != nil {
		return err
	}
	if fresh {
		b.Log.Info("daily puzzle", "guild", guild, "day", day, "puzzle", pz.ID)
	}
	return nil
}

// dailyPost is the public post of a day's puzzle in the server's
// language: the task, the Solve button and the results of the previous
// daily puzzle (names, not pings: nobody is notified by it).
func (b *Bot) dailyPost(ctx context.Context, loc, guild, channel, day string, pz *puzzle.Puzzle, prev *store.DailyPost, slot time.Time) (outbox.Post, error) {
	pos, err := pz.Decode()
	if err != nil {
		return outbox.Post{}, Wrap("daily puzzle "+pz.ID, err)
	}
	t := func(key string, args ...string) string { return i18n.T(loc, key, args...) }
	desc := t("puzzle.task", t("game."+pos.Turn().String()), strconv.Itoa(pz.Depth)) + "\n" + t("daily.howto")
	var content string
	if prev != nil {
		solvers, err := b.St.DailySolvers(ctx, prev.Guild, prev.Day, slot)
		if err != nil {
			return outbox.Post{}, err
		}
		content = dailyResults(loc, prev, solvers)
	}
	name := "daily-" + day + ".png"
	return outbox.Daily(view.Reply{
		ChannelID:  channel,
		Content:    view.ClipRunes(content, 2000),
		Embed:      &view.Embed{Title: t("daily.title", day, view.GameLabel(loc, pz.Game, "x", nil)), Description: desc, Image: name, Footer: pz.ID},
		Components: [][]view.Component{{{Kind: view.Button, CustomID: "dp:" + day, Label: t("btn.daily.solve"), Style: view.Primary}}},
	}, outbox.DailyRef{Guild: guild, Day: day, Game: pz.Game, Puzzle: pz.ID, Locale: loc}), nil
}

// dailyResults names who solved the previous daily puzzle and how long
// after its post, fastest first, within Discord's limits.
func dailyResults(loc string, prev *store.DailyPost, solvers []store.DailySolver) string {
	if len(solvers) == 0 {
		return i18n.T(loc, "daily.nosolver", prev.Day)
	}
	var parts []string
	for i, s := range solvers {
		if i == maxSolversNamed {
			parts = append(parts, i18n.T(loc, "daily.more", strconv.Itoa(len(solvers)-i)))
			break
		}
		name := view.ClipRunes(s.Name, 32)
		if name == "" {
			name = s.Player
		}
		took := fmtDuration(s.Solved.Sub(prev.Posted))
		if s.Misses > 0 {
			parts = append(parts, i18n.T(loc, "daily.solver.misses", name, took, strconv.Itoa(s.Misses)))
		} else {
			parts = append(parts, i18n.T(loc, "daily.solver", name, took))
		}
	}
	return i18n.T(loc, "daily.results", prev.Day, strconv.Itoa(len(solvers)), strings.Join(parts, ", "))
}

// drawDaily attaches a queued daily post's image: the puzzle from the
// solver's side. Without an image the post still goes.
func (b *Bot) drawDaily(r *view.Reply, d outbox.DailyRef) {
	if r.Embed == nil || r.Embed.Image == "" {
		return
	}
	pz, err := puzzleByID(d.Game, d.Puzzle)
	var png []byte
	var pos engine.Position
	if err == nil {
		pos, err = pz.Decode()
	}
	if err == nil {
		png, err = view.RenderPNG(pos, nil, pos.Turn() == engine.Black, d.Locale, nil)
	}
	if err != nil || png == nil {
		b.Log.Warn("draw daily puzzle", "puzzle", d.Puzzle, "err", err)
		r.Embed.Image = ""
		return
	}
	r.Files = []view.File{{Name: r.Embed.Image, ContentType: "image/png", Data: png, Description: view.PositionAlt(d.Locale, d.Game, pos, nil, nil)}}
}

// dailyDelivered records the Discord id of a delivered daily post; a
// failure is logged (the post went; only tomorrow's strip of its button
// is lost).
func (b *Bot) dailyDelivered(ctx context.Context, d outbox.DailyRef, messageID string) {
	if st := b.St; st != nil && messageID != "" {
		if err := st.SetDailyMessage(ctx, d.Guild, d.Day, messageID); err != nil {
			b.Log.Warn("record daily puzzle post", "guild", d.Guild, "day", d.Day, "err", err)
		}
	}
}

// dailySolve opens the daily puzzle of the button's day for the caller,
// privately, as their active puzzle (answered with /puzzle move).
func (b *Bot) dailySolve(ctx context.Context, r *Req) ([]view.Reply, error) {
	day := strings.TrimPrefix(r.CustomID, "dp:")
	st := b.St
	if r.GuildID == "" || st == nil {
		return nil, Refuse("daily.none")
	}
	p, err := st.DailyPost(ctx, r.GuildID, day)
	if errors.Is(err, store.ErrNotFound) {
		return nil, Refuse("daily.none")
	}
	if err != nil {
		return nil, err
	}
	if recent, err := st.RecentDailies(ctx, r.GuildID, 1); err != nil {
		return nil, err
	} else if len(recent) > 0 && recent[0].Day != day {
		return nil, Refuse("daily.over", day, ChannelMention(recent[0].Channel))
	}
	pz, err := puzzleByID(p.Game, p.PuzzleID)
	if err != nil {
		return nil, err
	}
	d, err := st.OpenDaily(ctx, r.GuildID, day, r.User.ID, r.User.Name)
	if err != nil {
		return nil, err
	}
	if !d.Solved.IsZero() {
		return nil, Refuse("daily.solved", fmtDuration(d.Solved.Sub(p.Posted)))
	}
	// A puzzle in progress is finished first, as /puzzle asks: opening
	// another would drop it without its result.
	if act, err := b.CurrentPuzzle(ctx, r); err == nil {
		if act.Puzzle.ID == pz.ID {
			return b.PuzzleBoard(r, act, nil, r.T("puzzle.again"))
		}
		return b.PuzzleBoard(r, act, nil, r.T("daily.busy"))
	}
	a := &store.ActivePuzzle{Player: r.User.ID, Game: p.Game, PuzzleID: pz.ID, Started: b.Clk.Now()}
	if err := st.SetActivePuzzle(ctx, a); err != nil {
		return nil, err
	}
	pos, err := pz.Decode()
	if err != nil {
		return nil, err
	}
	return b.PuzzleBoard(r, &PuzzleState{a, pz, pos}, nil, r.T("daily.head", day))
}

// DailyFinished records the end of an attempt on the daily puzzles that
// are this puzzle (a solve with its time, or a miss); logged on failure,
// since the puzzle's own result is already saved.
func (b *Bot) DailyFinished(ctx context.Context, a *store.ActivePuzzle, solved bool) {
	if err := b.St.FinishDaily(ctx, a.Player, a.PuzzleID, solved, b.Clk.Now()); err != nil {
		b.Log.Warn("daily puzzle result", "player", a.Player, "puzzle", a.PuzzleID, "err", err)
	}
}
