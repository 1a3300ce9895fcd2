package app

import (
	"context"
	"errors"
	"slices"
	"time"

	"github.com/tankbot/tankbot/bot/i18n"
	"github.com/tankbot/tankbot/bot/outbox"
	"github.com/tankbot/tankbot/bot/view"
	"github.com/tankbot/tankbot/store"
)

// Playing where the bot is not a member (docs/discord.md, "Playing
// anywhere"): a DM between players, a group DM, a server that did not add
// the bot, reached through a player's own install of the app. There the
// platform refuses the bot's own posts and edits, so:
//
//   - every answer goes through the interaction that asked (as anywhere);
//   - a post due later (the computer's move, a flag-fall, a reminder, a
//     fallback ping) goes as a follow-up of the game's freshest
//     interaction while its token lives, else it is held: shown to the
//     next person who interacts there, and sent to the DM of each player
//     who asked for it (/settings dm_notices);
//   - the games rate on the global ladder; tournaments and server
//     settings are refused (ServerOnly commands, bot/router).

// Places is what the store keeps for it: the posts held for a channel.
type Places interface {
	heldPostsIn(ctx context.Context, channel string) ([]heldPost, error)
	showHeld(ctx context.Context, ids []int64, messageID string) (int, error)
	hold(ctx context.Context, id int64, reason string) error
	// freshHook is the hook of game's newest board that has one (zero
	// when none).
	freshHook(ctx context.Context, game int64) (store.BoardHook, error)
	// setDMChannel records user's DM channel with the bot.
	setDMChannel(ctx context.Context, user, channel string) error
}

// InServerWithBot reports whether r comes from a server whose members
// include the bot: the only place for the ServerOnly commands.
func (r *Req) InServerWithBot() bool { return r.GuildID != "" && !r.BotAbsent }

// Ladder is the ratings ladder of r's place: the server's where the bot
// is a member, else the global one.
func (r *Req) Ladder() string { return ladderOf(r.GuildID, r.BotAbsent) }

// ladderOf is the ratings ladder of a game created in guild: the
// server's own where the bot is a member, else the global one.
func ladderOf(guild string, noPosts bool) string {
	if guild == "" || noPosts {
		return store.GlobalLadder
	}
	return guild
}

// errHeld reports a post kept for the next interaction (not an error of
// the delivery: the outbox marks it held).
var errHeld = errors.New("held for the next interaction")

// postsElsewhere reports whether a queued post for game (0: none) may not
// go by the bot's own token: its game is played where the bot is not a
// member.
func (b *Bot) postsElsewhere(ctx context.Context, game int64) (*Game, bool) {
	if game == 0 {
		return nil, false
	}
	g, err := b.St.game(ctx, game)
	if err != nil || !g.NoPosts {
		return nil, false
	}
	return g, true
}

// sendElsewhere delivers r, a post of game g played where the bot may not
// post: as a follow-up of the game's freshest interaction while its token
// lives, else held (errHeld) and sent to the DMs of the players who asked.
func (b *Bot) sendElsewhere(ctx context.Context, g *Game, r view.Reply) (string, error) {
	if tp, ok := b.n.(TokenPoster); ok {
		hook, err := b.St.freshHook(ctx, g.ID)
		if err == nil && hook.Token != "" && b.hookFresh(hook.Issued) {
			r.ChannelID, r.Nonce = "", ""
			id, err := tp.PostVia(ctx, hook.Token, hook.Issued, r)
			if err == nil {
				return id, nil
			}
			b.Log.Info("follow-up of the game's last interaction refused: held", "game", g.ID, "err", err)
		}
	}
	b.noticeByDM(ctx, g, r)
	return "", errHeld
}

// noticeByDM sends r to the DM with the bot of each player of g it is
// for (those it mentions; both when it mentions nobody) who asked for
// notices there. A failure is logged: the post stays held anyway.
func (b *Bot) noticeByDM(ctx context.Context, g *Game, r view.Reply) {
	dm, ok := b.n.(DMOpener)
	if !ok {
		return
	}
	for _, p := range []User{g.White, g.Black} {
		if p.Bot || p.ID == "" || len(r.Mentions) > 0 && !slices.Contains(r.Mentions, p.ID) {
			continue
		}
		s, err := b.St.Settings(ctx, p.ID)
		if err != nil || !s.DMNotices {
			continue
		}
		ch := s.DMChannel
		if ch == "" {
			if ch, err = dm.OpenDM(ctx, p.ID); err != nil {
				b.Log.Info("open a player's DM for a notice", "game", g.ID, "err", err)
				continue
			}
		}
		loc := s.Locale
		if loc == "" {
			loc = s.Seen
		}
		if loc == "" {
			loc = b.outLocale(g)
		}
		n := r
		n.ChannelID, n.Nonce, n.Sent = ch, "", nil
		n.Components = nil // the buttons belong to the game's conversation
		n.Content = i18n.T(loc, "place.dm.header", "#"+g.Num()) + "\n" + n.Content
		if _, err := b.n.Post(ctx, ch, n); err != nil {
			b.Log.Info("notice by DM", "game", g.ID, "err", err)
		}
	}
}

// maxShownHeld bounds the held posts one interaction shows: Discord
// allows a user-installed interaction 5 follow-ups, and the answer itself
// may take two (a deferral's fill and the message). The rest wait for the
// next interaction.
const maxShownHeld = 3

// WithHeld adds to the replies of r the posts held for its channel, as new
// public messages after the answer, and marks them shown. A held fallback
// ping whose game moved on is dropped instead.
func (b *Bot) WithHeld(ctx context.Context, r *Req, replies []view.Reply) []view.Reply {
	if r.ChannelID == "" || !r.BotAbsent || b.St == nil {
		return replies
	}
	for _, rep := range replies {
		if rep.Modal != nil {
			return replies // a form is the whole answer; the next one shows them
		}
	}
	held, err := b.St.heldPostsIn(ctx, r.ChannelID)
	if err != nil || len(held) == 0 {
		if err != nil {
			b.Log.Warn("read held posts", "channel", r.ChannelID, "err", err)
		}
		return replies
	}
	var ids []int64
	var shown []view.Reply
	for _, h := range held {
		if len(shown) == maxShownHeld {
			break
		}
		m := h.outMsg
		ids = append(ids, m.ID)
		if b.staleHeld(ctx, h) {
			continue
		}
		var got *view.Reply
		env := captureEnv{outboxEnv: outboxEnv{b, m.Seq}, show: func(rep view.Reply) { got = &rep }}
		if _, err := m.Post.Kind.Deliver(ctx, env, outbox.Msg{Channel: m.Channel, Nonce: m.Nonce}, m.Post.Reply); err != nil || got == nil {
			b.Log.Warn("show a held post", "post", m.ID, "err", err)
			continue
		}
		got.ChannelID, got.Nonce, got.Ephemeral = "", "", false
		shown = append(shown, *got)
	}
	if n, err := b.St.showHeld(ctx, ids, ""); err != nil || n < len(ids) {
		if err != nil {
			b.Log.Warn("mark held posts shown", "err", err)
		}
		if n == 0 {
			return replies // another interaction showed them
		}
	}
	if len(shown) == 0 {
		return replies
	}
	shown[0].Content = r.Public().T("place.held") + "\n" + shown[0].Content
	return append(replies, shown...)
}

// heldPost is a held outbox post and when it was queued.
type heldPost struct {
	outMsg
	queued time.Time
}

// staleHeld reports whether held post h no longer says anything true: a
// fallback ping whose game moved on, a reminder or a board of a game that
// ended or moved after it was queued. A game's final board never is.
func (b *Bot) staleHeld(ctx context.Context, h heldPost) bool {
	p := h.Post
	if h.Ping {
		return b.needlessPing(ctx, h.outMsg) != ""
	}
	if p.Kind.Final() || p.Kind.Game() == 0 {
		return false
	}
	g, err := b.St.game(ctx, p.Kind.Game())
	if err != nil {
		return false // when in doubt, show it
	}
	return g.Status != GmActive || g.ClockState.TurnStart.After(h.queued)
}

// captureEnv is the outbox's Env for a held post shown by an
// interaction: the post kind draws it as for a delivery, and the finished
// message is handed to show instead of being posted.
type captureEnv struct {
	outboxEnv
	show func(view.Reply)
}

func (e captureEnv) Post(_ context.Context, _ string, r view.Reply) (string, error) {
	e.show(r)
	return "", nil
}

// RememberDM records the caller's DM channel with the bot when they use
// it there, so notices can reach them (once per process and channel).
func (b *Bot) RememberDM(ctx context.Context, c Command) {
	if !c.BotDM || c.User.ID == "" || c.ChannelID == "" || b.St == nil {
		return
	}
	if v, ok := b.dms.Load(c.User.ID); ok && v.(string) == c.ChannelID {
		return
	}
	if err := b.St.setDMChannel(ctx, c.User.ID, c.ChannelID); err != nil {
		b.Log.Warn("remember DM channel", "user", c.User.ID, "err", err)
		return
	}
	b.dms.Store(c.User.ID, c.ChannelID)
}

func (s *storeRepo) heldPostsIn(ctx context.Context, channel string) ([]heldPost, error) {
	es, err := s.st.HeldPostsIn(ctx, channel)
	if err != nil {
		return nil, err
	}
	out := make([]heldPost, 0, len(es))
	for _, e := range es {
		p, err := outbox.Decode(e.Payload)
		if err != nil {
			// Unreadable (a newer bot's kind): shown to nobody, kept.
			continue
		}
		m := outMsg{ID: e.ID, Ping: e.Kind == store.OutboxPing, Game: e.Game, Seq: e.Seq, Channel: e.Channel, Nonce: e.Nonce, Post: p, Attempts: e.Attempts}
		out = append(out, heldPost{outMsg: m, queued: e.Created})
	}
	return out, nil
}

func (s *storeRepo) showHeld(ctx context.Context, ids []int64, messageID string) (int, error) {
	return s.st.ShowHeld(ctx, ids, messageID)
}

func (s *storeRepo) hold(ctx context.Context, id int64, reason string) error {
	return s.st.Hold(ctx, id, reason)
}

func (s *storeRepo) freshHook(ctx context.Context, game int64) (store.BoardHook, error) {
	bs, err := s.st.Boards(ctx, game)
	if err != nil {
		return store.BoardHook{}, err
	}
	var best store.BoardHook
	for _, bd := range bs {
		if bd.Hook.Token != "" && bd.Hook.Issued.After(best.Issued) {
			best = bd.Hook
		}
	}
	return best, nil
}

func (s *storeRepo) setDMChannel(ctx context.Context, user, channel string) error {
	p, err := s.st.Player(ctx, user)
	if err != nil && !errors.Is(err, store.ErrNotFound) {
		return err
	}
	p.ID, p.DMChannel = user, channel
	return s.st.PutPlayer(ctx, p)
}

// heldReason is what the outbox notes on a held post.
func heldReason(err error) string {
	if errors.Is(err, ErrNotMember) {
		return "refused where the bot is not a member: " + err.Error()
	}
	return "the bot may not post where the game is played"
}
