package imaging

import (
	"strings"

	"github.com/tankbot/tankbot/engine"
)

// Every word in an image comes through Options.Text, so the bot can pass its
// message catalog for the language of the message the image goes with.
// Words holds the English of every key this package asks for; the bot's
// catalog registers the same keys with their translations. Game-over
// reasons use the catalog's existing "reason.<Reason>" keys.

// Words is the English text of every key the images use, with {0}, {1}
// placeholders as in the bot's catalog.
var Words = map[string]string{
	"image.white":        "White",
	"image.black":        "Black",
	"image.to-move":      "{0} to move",
	"image.move":         "Move {0}",
	"image.game-over":    "Game over",
	"image.wins":         "{0} wins",
	"image.draw":         "Draw",
	"image.check":        "CHECK",
	"image.escape":       "ESCAPE",
	"image.must-capture": "MUST CAPTURE",
	"image.must-leave":   "MUST LEAVE CASTLE",
	"image.draft":        "DRAFT",
	"image.draft-place":  "Draft · {0} to place",
	"image.draft-alone":  "Draft · {0} places alone",
	"image.hand":         "{0}'s hand",
	"image.ready":        "READY",
	"image.hand-count":   "{0} in hand · {1}/26 on board",
}

// words looks keys up for one image.
type words struct {
	text func(key string, args ...string) string
}

func newWords(opt Options) words { return words{text: opt.Text} }

// t is key in the image's language; a key the caller's catalog lacks (it
// answers "" or the key itself) falls back to English.
func (w words) t(key string, args ...string) string {
	if w.text != nil {
		if s := w.text(key, args...); s != "" && s != key {
			return s
		}
	}
	if s, ok := Words[key]; ok {
		return engine.Fill(s, args)
	}
	return key
}

func (w words) side(s engine.Side) string {
	if s == engine.Black {
		return w.t("image.black")
	}
	return w.t("image.white")
}

// reason words a game-over reason: the catalog's "reason.<r>", else the
// game's own English (fallback).
func (w words) reason(r engine.Reason, fallback func(engine.Reason) string) string {
	if w.text != nil {
		key := "reason." + string(r)
		if s := w.text(key); s != "" && s != key {
			return s
		}
	}
	return fallback(r)
}

// reasonText words the reasons every game shares, in English.
func reasonText(r engine.Reason) string {
	switch r {
	case engine.ReasonNoMoves:
		return "no legal move"
	case engine.ReasonNone:
		return "over"
	}
	return strings.ReplaceAll(string(r), "-", " ")
}

// outcome is the game's outcome for the image: the caller's (it knows
// resignations, time and agreements), else the position's own.
func outcome(pos engine.Position, opt Options) engine.Outcome {
	if opt.Outcome != nil && opt.Outcome.Over() {
		return *opt.Outcome
	}
	return pos.Status()
}
