package engine

// Result says who won, if anyone.
type Result int8

const (
	Ongoing Result = iota
	WhiteWins
	BlackWins
	Draw
)

func (r Result) String() string {
	switch r {
	case WhiteWins:
		return "1-0"
	case BlackWins:
		return "0-1"
	case Draw:
		return "1/2-1/2"
	}
	return "*"
}

// Reason says why a game ended. The constants here are shared by all games;
// each game package adds its own (tank.ReasonEscape, ...). The bot translates
// a reason through its catalog key "reason.<Reason>".
type Reason string

const (
	ReasonNone        Reason = ""
	ReasonResignation Reason = "resignation"
	ReasonAgreement   Reason = "agreement"
	ReasonTimeout     Reason = "timeout"
	// ReasonTimeoutDraw: the flag fell but the opponent could not have won
	// (see Winnable).
	ReasonTimeoutDraw Reason = "timeout-draw"
	ReasonAborted     Reason = "aborted"
	ReasonRepetition  Reason = "repetition"
	ReasonNoMoves     Reason = "no-moves"
)

// Outcome is how a game stands: Ongoing, or ended with a result and a reason.
type Outcome struct {
	Result Result
	Reason Reason
}

// Over reports whether the game has ended.
func (o Outcome) Over() bool { return o.Result != Ongoing }

// Winner returns the winning side; ok is false for an ongoing game or a draw.
func (o Outcome) Winner() (s Side, ok bool) {
	switch o.Result {
	case WhiteWins:
		return White, true
	case BlackWins:
		return Black, true
	}
	return White, false
}

// Win is the outcome where side s wins for reason r.
func Win(s Side, r Reason) Outcome {
	if s == Black {
		return Outcome{Result: BlackWins, Reason: r}
	}
	return Outcome{Result: WhiteWins, Reason: r}
}

// Drawn is a drawn outcome for reason r.
func Drawn(r Reason) Outcome { return Outcome{Result: Draw, Reason: r} }
