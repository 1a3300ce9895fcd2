package main

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os/exec"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/tankbot/tankbot/engine"
	"github.com/tankbot/tankbot/engine/ai"
)

// extPlayer is the arena player "ext:N:PATH": level N of the AI of another
// tankbot binary (PATH), asked over the engine protocol (engine_proto.go).
// It keeps one `PATH engine` process per game played at the same time.
type extPlayer struct {
	name     string
	path     string
	level    int
	nodes    int64
	moveTime time.Duration

	mu    sync.Mutex
	idle  []*extProc
	all   []*extProc
	stats ai.SearchStats
}

type extProc struct {
	cmd *exec.Cmd
	in  io.WriteCloser
	out *bufio.Scanner
}

// parseExtPlayer reads "ext:N:PATH"; ok is false for another spec.
func parseExtPlayer(spec string, nodes int64, moveTime time.Duration) (p *extPlayer, ok bool, err error) {
	rest, ok := strings.CutPrefix(strings.TrimSpace(spec), "ext:")
	if !ok {
		return nil, false, nil
	}
	lv, path, found := strings.Cut(rest, ":")
	n, err := strconv.Atoi(lv)
	if !found || err != nil || n < 1 || n > ai.Levels || path == "" {
		return nil, true, fmt.Errorf("player %q: want ext:N:PATH (level 1 to %d of the tankbot binary at PATH)", spec, ai.Levels)
	}
	return &extPlayer{name: "ext:" + lv, path: path, level: n, nodes: nodes, moveTime: moveTime}, true, nil
}

// Name is "ext:N" (the path is left out so that records stay portable).
func (p *extPlayer) Name() string { return p.name }

func (p *extPlayer) get() (*extProc, error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if n := len(p.idle); n > 0 {
		e := p.idle[n-1]
		p.idle = p.idle[:n-1]
		return e, nil
	}
	cmd := exec.Command(p.path, "engine")
	in, err := cmd.StdinPipe()
	if err != nil {
		return nil, err
	}
	out, err := cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	if err := cmd.Start(); err != nil {
		return nil, fmt.Errorf("%s: %w", p.name, err)
	}
	sc := bufio.NewScanner(out)
	sc.Buffer(make([]byte, 1<<16), 1<<24)
	e := &extProc{cmd: cmd, in: in, out: sc}
	p.all = append(p.all, e)
	return e, nil
}

func (p *extPlayer) put(e *extProc) {
	p.mu.Lock()
	p.idle = append(p.idle, e)
	p.mu.Unlock()
}

// Close ends the engine processes.
func (p *extPlayer) Close() {
	p.mu.Lock()
	defer p.mu.Unlock()
	for _, e := range p.all {
		e.in.Close()
		_ = e.cmd.Wait()
	}
	p.all, p.idle = nil, nil
}

func (p *extPlayer) Choose(ctx context.Context, pos engine.Position, history []engine.Position, seed int64) (engine.Move, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	req := engineRequest{Game: pos.Rules().Name(), Position: pos.Encode(), Level: p.level, Seed: seed, Nodes: p.nodes, MoveTime: p.moveTime.Milliseconds()}
	for _, h := range history {
		req.History = append(req.History, h.Encode())
	}
	line, err := json.Marshal(req)
	if err != nil {
		return nil, err
	}
	e, err := p.get()
	if err != nil {
		return nil, err
	}
	if _, err := e.in.Write(append(line, '\n')); err != nil {
		return nil, fmt.Errorf("%s: %w", p.name, err)
	}
	if !e.out.Scan() {
		err := e.out.Err()
		if err == nil {
			err = errors.New("the engine process ended")
		}
		return nil, fmt.Errorf("%s: %w", p.name, err)
	}
	var rep engineReply
	if err := json.Unmarshal(e.out.Bytes(), &rep); err != nil {
		return nil, fmt.Errorf("%s: reply: %w", p.name, err)
	}
	p.put(e)
	if rep.Error != "" {
		return nil, fmt.Errorf("%s: %s", p.name, rep.Error)
	}
	m, err := pos.ParseMove(rep.Move)
	if err != nil {
		return nil, fmt.Errorf("%s: move %q: %w", p.name, rep.Move, err)
	}
	if rep.Nodes > 0 { // 0: a book or planned move (no search), or a build that does not say
		p.stats.Add(rep.Depth, rep.Nodes)
	}
	return m, nil
}

// Stats implements ai.Searcher: the depths and nodes the engine reported.
func (p *extPlayer) Stats() ai.SearchStats { return p.stats.Snapshot() }
