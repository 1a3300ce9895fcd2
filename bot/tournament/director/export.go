package director

import (
	"fmt"
	"io"

	"github.com/tankbot/tankbot/bot/tournament"
	"github.com/tankbot/tankbot/bot/tournament/trf"
)

// TRF writes the tournament as a FIDE TRF-16 file (bot/tournament/trf):
// players by pairing number with their stored names, every round played
// so far, points and ranks from the standings, and the number of rounds
// (XXR) and first colour (XXC) a pairing program needs, so an arbiter
// can check each round with a program of their own.
func (e *Event) TRF(w io.Writer) error {
	f := trf.Export(e.T, e.Name)
	f.Name = fmt.Sprintf("tankbot tournament %d: %s %s", e.Row.ID, e.Row.Kind, e.Row.Variant)
	f.Start = e.Row.Created.UTC().Format("2006/01/02")
	if e.T.Status == tournament.Finished {
		f.End = e.Row.Updated.UTC().Format("2006/01/02")
	}
	f.TimeControl = e.Row.Clock
	return f.Write(w)
}
