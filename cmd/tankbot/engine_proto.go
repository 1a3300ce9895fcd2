package main

// The engine protocol: `tankbot engine` reads one JSON request a line on
// standard input and answers each with one JSON line on standard output
// (the move the AI chooses). The arena's "ext:N:PATH" player speaks it to
// another build of tankbot, so that one version of the AI can play
// another (issue 45: new level 5 against a build of an earlier commit).
// This file uses only the engine API every build since issue 27 has
// (ai.Think, ai.Limits, games.Lookup, Rules.Decode), so the same file
// compiled into an older tree gives that tree's AI the same protocol.

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"time"

	"github.com/tankbot/tankbot/engine"
	"github.com/tankbot/tankbot/engine/ai"
	"github.com/tankbot/tankbot/engine/games"
)

// engineRequest asks for a move: the position and the game's earlier
// positions (oldest first, for the repetition rule), all encoded.
type engineRequest struct {
	Game     string   `json:"game"`
	Position string   `json:"position"`
	History  []string `json:"history,omitempty"`
	Level    int      `json:"level"`
	Seed     int64    `json:"seed"`
	Nodes    int64    `json:"nodes,omitempty"`
	MoveTime int64    `json:"movetime_ms,omitempty"`
}

// engineReply is the chosen move in canonical notation, or an error.
type engineReply struct {
	Move  string `json:"move,omitempty"`
	Error string `json:"error,omitempty"`
	Nodes int64  `json:"nodes,omitempty"`
	Depth int    `json:"depth,omitempty"`
	Ms    int64  `json:"ms,omitempty"`
}

func runEngine(args []string, stdout, _ io.Writer) error {
	fs := newFlags("engine")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	return serveEngine(os.Stdin, stdout)
}

// serveEngine answers requests until in ends.
func serveEngine(in io.Reader, out io.Writer) error {
	sc := bufio.NewScanner(in)
	sc.Buffer(make([]byte, 1<<16), 1<<26)
	enc := json.NewEncoder(out)
	for sc.Scan() {
		if len(sc.Bytes()) == 0 {
			continue
		}
		var req engineRequest
		var rep engineReply
		if err := json.Unmarshal(sc.Bytes(), &req); err != nil {
			rep.Error = fmt.Sprintf("bad request: %v", err)
		} else {
			rep = answerEngine(req)
		}
		if err := enc.Encode(rep); err != nil {
			return err
		}
	}
	return sc.Err()
}

func answerEngine(req engineRequest) engineReply {
	start := time.Now()
	rules, err := games.Lookup(req.Game)
	if err != nil {
		return engineReply{Error: err.Error()}
	}
	pos, err := rules.Decode(req.Position)
	if err != nil {
		return engineReply{Error: fmt.Sprintf("position: %v", err)}
	}
	var hist []engine.Position
	for i, h := range req.History {
		p, err := rules.Decode(h)
		if err != nil {
			return engineReply{Error: fmt.Sprintf("history %d: %v", i+1, err)}
		}
		hist = append(hist, p)
	}
	lim := ai.Limits{Level: req.Level, Seed: req.Seed, History: hist, Nodes: req.Nodes, Start: start}
	if req.MoveTime > 0 {
		lim.MoveTime = time.Duration(req.MoveTime) * time.Millisecond
	}
	res, err := ai.Think(context.Background(), pos, lim)
	if err != nil {
		return engineReply{Error: err.Error()}
	}
	return engineReply{Move: pos.FormatMove(res.Move), Nodes: res.Nodes, Depth: res.Depth, Ms: time.Since(start).Milliseconds()}
}
