package app

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/tankbot/tankbot/bot/view"
	"github.com/tankbot/tankbot/store"
	"github.com/tankbot/tankbot/store/clock"
)

// The crash test: a child process (this test binary, re-executed) plays a
// stream of moves and lets flags fall through the real handlers, scheduler
// and SQLite file, while its notifier records every post it accepts in a
// file (dropping a resent nonce, as Discord does with enforce_nonce). The
// parent SIGKILLs it at random moments and, after each kill, checks the
// file before anything repairs it.

const (
	crashEnv   = "TANKBOT_BOT_CRASH_DIR"
	crashDrain = "TANKBOT_BOT_CRASH_DRAIN"
	crashGames = 3
)

// fileNotifier accepts posts by appending them to a file, synced before it
// answers, and answers a nonce it has seen with the first message's id.
type fileNotifier struct {
	mu   sync.Mutex
	f    *os.File
	seen map[string]bool
}

func openFileNotifier(path string) (*fileNotifier, error) {
	n := &fileNotifier{seen: map[string]bool{}}
	if data, err := os.ReadFile(path); err == nil {
		for _, line := range strings.Split(string(data), "\n") {
			if f := strings.Fields(line); len(f) >= 2 && f[0] == "sent" {
				n.seen[f[1]] = true
			}
		}
	}
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_APPEND|os.O_CREATE, 0o600)
	n.f = f
	return n, err
}

func (n *fileNotifier) Post(_ context.Context, ch string, r view.Reply) (string, error) {
	n.mu.Lock()
	defer n.mu.Unlock()
	if r.Nonce != "" && n.seen[r.Nonce] {
		return "m-" + r.Nonce, nil
	}
	kind := "text"
	if isBoard(r) {
		kind = "board"
	}
	// seq is a move's (its fallback ping); 0 for any other post.
	if _, err := fmt.Fprintf(n.f, "sent %s %s %d %s %d\n", r.Nonce, ch, gameOf(r), kind, moveSeq(r)); err != nil {
		return "", err
	}
	if err := n.f.Sync(); err != nil {
		return "", err
	}
	n.seen[r.Nonce] = true
	return "m-" + r.Nonce, nil
}

// answer records that a move's answer, with its ping, reached the players
// (as the adapter's interaction answer does), before the bot is told.
func (n *fileNotifier) answer(r view.Reply) error {
	n.mu.Lock()
	defer n.mu.Unlock()
	if _, err := fmt.Fprintf(n.f, "answer %d %d\n", gameOf(r), moveSeq(r)); err != nil {
		return err
	}
	return n.f.Sync()
}

func (n *fileNotifier) CreateThread(context.Context, string, string, string) (string, error) {
	return "", ErrNoThreads
}

// Edit (retiring an old board's buttons) is not a delivery the test counts.
func (n *fileNotifier) Edit(context.Context, string, string, view.Reply) error { return nil }

// TestCrashChildBot is the child: it never returns on its own (unless
// draining) and prints "ack <game> <ply> <notation>" once a move's reply is
// back from the handler.
func TestCrashChildBot(t *testing.T) {
	dir := os.Getenv(crashEnv)
	if dir == "" {
		t.Skip("only run as the child of TestCrashKills")
	}
	ctx := context.Background()
	st, err := OpenSQLite(filepath.Join(dir, "bot.db"))
	if err != nil {
		t.Fatal(err)
	}
	n, err := openFileNotifier(filepath.Join(dir, "posts"))
	if err != nil {
		t.Fatal(err)
	}
	// Time goes on from the last heartbeat (written by every tick, at most
	// one step behind), so a restart is no outage.
	start := time.Date(2026, 5, 1, 12, 0, 0, 0, time.UTC)
	if last, err := st.lastHeartbeat(ctx); err == nil && !last.IsZero() {
		start = last.Add(10 * time.Second)
	}
	clk := clock.NewFake(start)
	b := newBot(Config{}, st, clk, n, nil)
	if err := b.Recover(ctx); err != nil {
		t.Fatal(err)
	}
	if os.Getenv(crashDrain) != "" {
		// First the fallback pings still waiting, before the long
		// waits below let every flag fall.
		clk.Advance(pingFallbackDelay)
		if err := b.Tick(ctx); err != nil {
			t.Fatal(err)
		}
		for range 20 {
			clk.Advance(claimLease + time.Second)
			if err := b.Tick(ctx); err != nil {
				t.Fatal(err)
			}
		}
		return
	}
	fmt.Println("ready")
	out := bufio.NewWriter(os.Stdout)
	for {
		i := rand.IntN(crashGames)
		ch := "chan-" + strconv.Itoa(i)
		a, c := User{ID: "p" + strconv.Itoa(2*i), Name: "p" + strconv.Itoa(2*i)}, User{ID: "p" + strconv.Itoa(2*i+1), Name: "p" + strconv.Itoa(2*i+1)}
		gs, err := st.channelGames(ctx, ch)
		if err != nil {
			t.Fatal(err)
		}
		if len(gs) == 0 {
			cmd := Command{Kind: KindSlash, Name: "challenge", User: a, ChannelID: ch, GuildID: "g",
				Options: map[string]string{"opponent": c.ID, "clock": "10m", "color": "white", "thread": "false"}, Users: map[string]User{c.ID: c}}
			b.Handle(ctx, cmd)
			b.Handle(ctx, Command{Kind: KindSlash, Name: "accept", User: c, ChannelID: ch, GuildID: "g", Options: map[string]string{}})
			continue
		}
		g := gs[0]
		if g.ClockState.Flagged(clockOf(g), clk.Now()) {
			// Its flag is down (another game's wait ran this clock out):
			// the tick below lets it fall; a move now would be answered
			// with the flag-fall, not played.
		} else if rand.IntN(8) == 0 {
			// Nobody moves: the reminder and the flag fall out of band.
			clk.Advance(11 * time.Minute)
		} else {
			pos, err := g.Position()
			if err != nil {
				t.Fatal(err)
			}
			ms := pos.LegalMoves()
			if len(ms) == 0 {
				continue
			}
			note := pos.FormatMove(ms[rand.IntN(len(ms))])
			who := g.User(int(pos.Turn()))
			rs := b.Handle(ctx, Command{Kind: KindSlash, Name: "move", User: who, ChannelID: ch, GuildID: "g",
				Options: map[string]string{"move": note, "game": strconv.FormatInt(g.ID, 10)}})
			if len(rs) > 0 && !rs[0].Ephemeral {
				fmt.Fprintf(out, "ack %d %d %s %d\n", g.ID, g.Ply+1, strings.ReplaceAll(note, " ", "_"), moveSeq(rs[0]))
				out.Flush()
				// The answer reaches the players and is recorded, as
				// the adapter does, except one in three that is lost
				// (Discord refused it): its fallback ping must go.
				if moveSeq(rs[0]) > 0 && rand.IntN(3) != 0 {
					if err := n.answer(rs[0]); err != nil {
						t.Fatal(err)
					}
					rs[0].RecordSent(ctx, rs[0].ChannelID, "", view.Hook{})
				} else if moveSeq(rs[0]) > 0 && rand.IntN(4) != 0 {
					// Nobody moves until the fallback is due (else a
					// newer move supersedes it).
					clk.Advance(pingFallbackDelay)
				}
			}
			clk.Advance(5 * time.Second)
		}
		if err := b.Tick(ctx); err != nil {
			t.Fatal(err)
		}
	}
}

type ackedMove struct {
	game int64
	ply  int
	note string
	seq  int
}

// TestCrashKills runs the child and kills it 100 times.
func TestCrashKills(t *testing.T) {
	if testing.Short() {
		t.Skip("long tier: kills a child process 100 times")
	}
	dir := t.TempDir()
	var acked []ackedMove
	// The test counts kills, not time: on a loaded machine each run is
	// slower, never fewer (go test's -timeout bounds a hung child).
	const kills = 100
	for range kills {
		cmd := exec.Command(os.Args[0], "-test.run=^TestCrashChildBot$", "-test.count=1")
		cmd.Env = append(os.Environ(), crashEnv+"="+dir)
		stdout, err := cmd.StdoutPipe()
		if err != nil {
			t.Fatal(err)
		}
		cmd.Stderr = os.Stderr
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		lines := make(chan string, 1024)
		go func() {
			sc := bufio.NewScanner(stdout)
			for sc.Scan() {
				lines <- sc.Text()
			}
			close(lines)
		}()
		// Kill at a random moment after the child is up.
		if l, ok := <-lines; !ok || l != "ready" {
			cmd.Wait()
			t.Fatalf("child did not start: %q", l)
		}
		time.Sleep(time.Duration(20+rand.IntN(300)) * time.Millisecond)
		if err := cmd.Process.Signal(syscall.SIGKILL); err != nil {
			t.Fatal(err)
		}
		for l := range lines {
			f := strings.Fields(l)
			if len(f) == 5 && f[0] == "ack" {
				id, _ := strconv.ParseInt(f[1], 10, 64)
				ply, _ := strconv.Atoi(f[2])
				seq, _ := strconv.Atoi(f[4])
				acked = append(acked, ackedMove{id, ply, strings.ReplaceAll(f[3], "_", " "), seq})
			}
		}
		cmd.Wait()
		checkAfterCrash(t, filepath.Join(dir, "bot.db"), acked)
	}
	// Let a last run deliver what is queued, then every flag-fall and
	// reminder must have reached the channel exactly once.
	cmd := exec.Command(os.Args[0], "-test.run=^TestCrashChildBot$", "-test.count=1")
	cmd.Env = append(os.Environ(), crashEnv+"="+dir, crashDrain+"=1")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("drain: %v\n%s", err, out)
	}
	checkDelivered(t, dir, acked, kills)
	t.Logf("%d kills, %d acknowledged moves", kills, len(acked))
}

// checkAfterCrash: the file is sound, every acknowledged move is in it, and
// every active timed game holds exactly one flag event for its ply.
func checkAfterCrash(t *testing.T, path string, acked []ackedMove) {
	t.Helper()
	ctx := context.Background()
	s, err := store.Open(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if res, err := s.Check(ctx); err != nil || res != "ok" {
		t.Fatalf("integrity check: %q %v", res, err)
	}
	logs := map[int64][]store.MoveRecord{}
	for _, a := range acked {
		ms, ok := logs[a.game]
		if !ok {
			if ms, err = s.Moves(ctx, a.game); err != nil {
				t.Fatal(err)
			}
			logs[a.game] = ms
		}
		if a.ply > len(ms) || ms[a.ply-1].Notation != a.note {
			t.Fatalf("acknowledged move %d of game %d (%s) lost", a.ply, a.game, a.note)
		}
	}
	gs, err := s.TimedActiveGames(ctx)
	if err != nil {
		t.Fatal(err)
	}
	for _, g := range gs {
		evs, err := s.PendingEvents(ctx, g.ID, evFlag)
		if err != nil {
			t.Fatal(err)
		}
		if len(evs) != 1 || evs[0].Ply != g.Ply {
			t.Fatalf("game %d at ply %d has flag events %+v", g.ID, g.Ply, evs)
		}
	}
}

// checkDelivered: each queued post went out exactly once (by nonce), or
// never when cancelled; each game lost on time was announced exactly
// once; and the turn ping of every acknowledged move reached the players,
// by the answer or its fallback, unless its fallback was cancelled for a
// reason (a newer move, the game over before it was due): twice only in
// the window a kill can open (the answer taken, its recording not yet
// written), at most once per kill.
func checkDelivered(t *testing.T, dir string, acked []ackedMove, kills int) {
	t.Helper()
	ctx := context.Background()
	s, err := store.Open(ctx, filepath.Join(dir, "bot.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	data, err := os.ReadFile(filepath.Join(dir, "posts"))
	if err != nil && !errors.Is(err, os.ErrNotExist) {
		t.Fatal(err)
	}
	sent := map[string]int{}
	boards := map[string]int{}
	type move struct {
		game int64
		seq  int
	}
	pings := map[move]int{} // answers and fallbacks delivered
	for _, line := range strings.Split(string(data), "\n") {
		f := strings.Fields(line)
		if len(f) == 3 && f[0] == "answer" {
			id, _ := strconv.ParseInt(f[1], 10, 64)
			seq, _ := strconv.Atoi(f[2])
			pings[move{id, seq}]++
			continue
		}
		if len(f) != 6 {
			continue
		}
		sent[f[1]]++
		if f[5] != "0" {
			id, _ := strconv.ParseInt(f[3], 10, 64)
			seq, _ := strconv.Atoi(f[5])
			pings[move{id, seq}]++
		} else if f[4] == "board" {
			boards[f[3]]++
		}
	}
	out, err := s.Outbox(ctx)
	if err != nil {
		t.Fatal(err)
	}
	delivered, fallbacks, cancelled := 0, 0, map[string]int{}
	rows := map[move]store.OutboxEntry{}
	for _, m := range out {
		if m.Kind == store.OutboxPing {
			rows[move{m.Game, m.Seq}] = m
		}
		want := 1
		if m.State == store.OutboxCancelled && m.Kind == store.OutboxPing {
			// Cancelled before it went, or it went just before a kill
			// (the store never learnt) and a newer move cancelled it.
			want = min(sent[m.Nonce], 1)
			cancelled[m.LastError]++
		} else if m.State != store.OutboxSent {
			t.Errorf("post %d (%s): state %s", m.ID, m.Nonce, m.State)
		}
		if sent[m.Nonce] != want {
			t.Errorf("post %d (%s): state %s, delivered %d times", m.ID, m.Nonce, m.State, sent[m.Nonce])
		}
		delivered += want
		if want == 1 && m.Kind == store.OutboxPing {
			fallbacks++
		}
	}
	if len(sent) != delivered {
		t.Errorf("%d posts delivered, %d queued and not cancelled", len(sent), delivered)
	}
	doubles := 0
	for _, n := range pings {
		if n > 1 {
			doubles++
		}
	}
	if doubles > kills {
		t.Errorf("%d turn pings delivered twice, more than the %d kills can explain", doubles, kills)
	}
	seqs := map[int64]int{}
	timeouts := 0
	for id := int64(1); ; id++ {
		g, err := s.Game(ctx, id)
		if errors.Is(err, store.ErrNotFound) {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		if g.Reason == "timeout" {
			timeouts++
			if n := boards[strconv.FormatInt(id, 10)]; n != 1 {
				t.Errorf("game %d lost on time was announced %d times", id, n)
			}
		}
		seqs[id] = int(g.Seq)
	}
	for _, a := range acked {
		mv := move{a.game, a.seq}
		if a.seq == 0 || pings[mv] > 0 {
			continue
		}
		r, ok := rows[mv]
		switch {
		case !ok:
			t.Errorf("game %d ply %d: the answer was lost and no fallback ping was queued", a.game, a.ply)
		case r.State != store.OutboxCancelled:
			t.Errorf("game %d ply %d: the answer was lost and the fallback is %s, not delivered", a.game, a.ply, r.State)
		case r.LastError == "" && seqs[a.game] <= a.seq:
			t.Errorf("game %d ply %d: the fallback was cancelled though no newer move superseded it", a.game, a.ply)
		}
	}
	if timeouts == 0 || len(out) == 0 {
		t.Errorf("the run exercised nothing: %d flag-falls, %d posts", timeouts, len(out))
	}
	t.Logf("%d posts delivered, %d flag-falls, %d fallback pings sent (cancelled: %v), %d pings delivered twice", delivered, timeouts, fallbacks, cancelled, doubles)
}
