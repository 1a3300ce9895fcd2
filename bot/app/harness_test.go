package app

import (
	"context"
	"errors"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/tankbot/tankbot/bot/names"
	"github.com/tankbot/tankbot/bot/view"
	"github.com/tankbot/tankbot/store/clock"
)

type post struct {
	Channel string
	Reply   view.Reply
}

type fakeNotifier struct {
	mu        sync.Mutex
	posts     []post
	edits     []edit
	noThreads bool
	threads   int
	fail      int      // the next fail posts return an error (Discord down)
	failEdits int      // the next failEdits edits return an error
	threadOn  []string // the message each thread was opened on ("" none)
}

func (n *fakeNotifier) Post(_ context.Context, ch string, r view.Reply) (string, error) {
	n.mu.Lock()
	defer n.mu.Unlock()
	if n.fail > 0 {
		n.fail--
		return "", errors.New("fake notifier: post failed")
	}
	n.posts = append(n.posts, post{ch, shown(r)})
	return "m", nil
}

func (n *fakeNotifier) Edit(_ context.Context, ch, msg string, r view.Reply) error {
	n.mu.Lock()
	defer n.mu.Unlock()
	if n.failEdits > 0 {
		n.failEdits--
		return errors.New("fake notifier: edit failed")
	}
	n.edits = append(n.edits, edit{ch, msg, shown(r)})
	return nil
}

type edit struct {
	Channel, Message string
	Reply            view.Reply
}

func (n *fakeNotifier) CreateThread(_ context.Context, ch, msg, name string) (string, error) {
	n.mu.Lock()
	defer n.mu.Unlock()
	if n.noThreads {
		return "", ErrNoThreads
	}
	n.threads++
	n.threadOn = append(n.threadOn, msg)
	return ch + "/" + name, nil
}

func (n *fakeNotifier) all() []post {
	n.mu.Lock()
	defer n.mu.Unlock()
	return append([]post(nil), n.posts...)
}

func (n *fakeNotifier) allEdits() []edit {
	n.mu.Lock()
	defer n.mu.Unlock()
	return append([]edit(nil), n.edits...)
}

type harness struct {
	t   *testing.T
	b   *Bot
	clk *clock.Fake
	n   *fakeNotifier
	ctx context.Context
	loc string // Command.Locale of every command
	// lose makes the answers of the next commands go missing, as when
	// Discord never got them: they are not reported sent (RecordSent).
	lose bool
}

// handle runs c and, like a transport, reports its answers delivered
// (unless h.lose).
func (h *harness) handle(c Command) []view.Reply {
	rs := h.b.Handle(h.ctx, c)
	if !h.lose {
		for _, r := range rs {
			r.RecordSent(h.ctx, r.ChannelID, "", view.Hook{})
		}
	}
	for i := range rs {
		rs[i] = shown(rs[i])
	}
	return rs
}

// shown is a reply as a plain-text transport shows it: names plain.
func shown(r view.Reply) view.Reply { return r.WithText(names.PlainText, names.PlainText) }

var t0 = time.Date(2026, 1, 2, 15, 4, 5, 0, time.UTC)

func newHarness(t *testing.T, cfg Config) *harness {
	t.Helper()
	clk := clock.NewFake(t0)
	n := &fakeNotifier{}
	return &harness{t: t, b: newBot(cfg, newTestRepo(t), clk, n, nil), clk: clk, n: n, ctx: context.Background()}
}

func user(name string) User { return User{ID: "id-" + name, Name: name} }

// slash runs a slash command by name with "k=v" options.
func (h *harness) slash(who User, name string, opts ...string) []view.Reply {
	h.t.Helper()
	c := Command{Kind: KindSlash, Name: name, User: who, GuildID: "guild", ChannelID: "chan", Locale: h.loc, GuildLocale: h.loc, Options: map[string]string{}, Users: map[string]User{}}
	for _, o := range opts {
		k, v, _ := strings.Cut(o, "=")
		c.Options[k] = v
		if k == "opponent" {
			u := user(v)
			if strings.HasSuffix(v, "bot") {
				u.Bot = true
			}
			c.Options[k] = u.ID
			c.Users[u.ID] = u
		}
	}
	return h.handle(c)
}

func (h *harness) click(who User, id string, values ...string) []view.Reply {
	h.t.Helper()
	return h.handle(Command{Kind: KindComponent, CustomID: id, Values: values, User: who, GuildID: "guild", ChannelID: "chan", Locale: h.loc, GuildLocale: h.loc})
}

// customIDs lists the custom ids of a reply's components.
func customIDs(rs []view.Reply) []string {
	var out []string
	for _, r := range rs {
		for _, row := range r.Components {
			for _, c := range row {
				out = append(out, c.CustomID)
			}
		}
	}
	return out
}

func findID(t *testing.T, rs []view.Reply, suffix string) string {
	t.Helper()
	for _, id := range customIDs(rs) {
		if strings.HasSuffix(id, ":"+suffix) {
			return id
		}
	}
	t.Fatalf("no button %q in %+v", suffix, rs)
	return ""
}

func text(rs []view.Reply) string {
	var sb strings.Builder
	for _, r := range rs {
		sb.WriteString(r.Content + "\n")
		if r.Embed != nil {
			sb.WriteString(r.Embed.Title + "\n" + r.Embed.Description + "\n")
			for _, f := range r.Embed.Fields {
				sb.WriteString(f.Name + ": " + f.Value + "\n")
			}
		}
	}
	return sb.String()
}

// mustRefuse checks rs is one ephemeral reply containing want.
func mustRefuse(t *testing.T, rs []view.Reply, want string) {
	t.Helper()
	if len(rs) != 1 || !rs[0].Ephemeral || !strings.Contains(rs[0].Content, want) {
		t.Fatalf("want an ephemeral refusal containing %q, got %+v", want, rs)
	}
}

func mustNotRefuse(t *testing.T, rs []view.Reply) {
	t.Helper()
	if len(rs) == 0 {
		t.Fatal("no reply")
	}
	if len(rs) == 1 && rs[0].Ephemeral {
		t.Fatalf("refused: %s", rs[0].Content)
	}
}

// StartGame has alice challenge bob (alice white) and bob accept; it
// returns the game id.
func (h *harness) StartGame(opts ...string) int64 {
	h.t.Helper()
	alice, bob := user("alice"), user("bob")
	rs := h.slash(alice, "challenge", append([]string{"opponent=bob", "color=white"}, opts...)...)
	mustNotRefuse(h.t, rs)
	rs = h.click(bob, findID(h.t, rs, "accept"))
	mustNotRefuse(h.t, rs)
	for _, r := range rs {
		if isBoard(r) {
			return gameOf(r)
		}
	}
	h.t.Fatalf("accept posted no board: %+v", rs)
	return 0
}
