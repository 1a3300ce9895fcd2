package app

import "github.com/tankbot/tankbot/bot/view"

// What the tests read of a reply's recorder (view.Reply.Sent): whether it
// shows a game's board, the move sequence it answers, its challenge.

func isBoard(r view.Reply) bool {
	_, _, ok := boardOf(r)
	return ok
}

func moveSeq(r view.Reply) int {
	_, seq, _ := boardOf(r)
	return seq
}

func challengeOf(r view.Reply) int64 {
	c, _ := r.Sent.(challengeRecorder)
	return c.id
}
