package discord

import (
	"os"
	"testing"
)

// scenarios are every end-to-end test of the adapter with the real bot
// and a real SQLite file against the fake Discord. TestE2E runs each in
// both modes (the gateway of `tankbot run`, the HTTP endpoint of `tankbot
// serve`); those marked slow run again with every handler held past the
// direct window, so that each answer is deferred, and check the same
// messages. Not slow: those that open a modal (it must be the first
// answer, which a deferral already is), check the exact calls of a direct
// answer, or defer on their own.
var scenarios = []struct {
	name string
	run  func(*testing.T, *world)
	slow bool
}{
	{"Game", e2eGame, false},
	{"Refusals", e2eRefusals, true},
	{"FlagFallBySchedulerAndRetriedPost", e2eFlagFallBySchedulerAndRetriedPost, true},
	{"RestartMidGame", e2eRestartMidGame, false},
	{"ThreadPerGame", e2eThreadPerGame, true},
	{"ChallengeExpiryEditsInPlace", e2eChallengeExpiryEditsInPlace, true},
	{"ExpiredChallengeClickUpdates", e2eExpiredChallengeClickUpdates, true},
	{"TypedAcceptRetiresChallenge", e2eTypedAcceptRetiresChallenge, true},
	{"ChallengeExpiryEditRetried", e2eChallengeExpiryEditRetried, true},
	{"RematchOfferExpires", e2eRematchOfferExpires, true},
	{"FlowTankChess", e2eFlowTankChess, true},
	{"FlowCamelot", e2eFlowCamelot, true},
	{"FlowGungiLanguages", e2eFlowGungiLanguages, true},
	{"FlowFlagAndDeclines", e2eFlowFlagAndDeclines, true},
	{"FlowOtherServer", e2eFlowOtherServer, true},
	{"PrivateViews", e2ePrivateViews, true},
	{"FlowDeferredMovePings", e2eFlowDeferredMovePings, false},
	{"PickerPlaysMove", e2ePickerPlaysMove, true},
	{"PickerBack", e2ePickerBack, true},
	{"Camelot", e2eCamelot, true},
	{"Gungi", e2eGungi, true},
	{"LostAnswerPingsLater", e2eLostAnswerPingsLater, false},
	{"AnswerRecordedDespiteReadError", e2eAnswerRecordedDespiteReadError, false},
	{"DeferredAnswerLostPingsLater", e2eDeferredAnswerLostPingsLater, false},
	{"Puzzles", e2ePuzzles, true},
	{"PuzzlePicker", e2ePuzzlePicker, true},
	{"PuzzleForm", e2ePuzzleForm, false},
	{"PuzzleFromGame", e2ePuzzleFromGame, false},
	{"Tournament", e2eTournament, true},
	{"TournamentSwiss", e2eTournamentSwiss, false},
	{"TournamentRoundRobin", e2eTournamentRoundRobin, false},
	{"TournamentKnockout", e2eTournamentKnockout, false},
	{"ReplayRunsOnce", e2eReplayRunsOnce, false},
}

func TestE2E(t *testing.T) {
	for mi, m := range modes {
		t.Run(m.name, func(t *testing.T) {
			t.Parallel()
			for si, sc := range scenarios {
				// The fast tier runs each scenario in one transport, in
				// turn, and its held (deferred) run in the other; the
				// long tier after it runs the rest.
				fastPlain := (mi+si)%2 == 0
				t.Run(sc.name, func(t *testing.T) {
					if testing.Short() && !fastPlain {
						t.Skip("long tier: every scenario in both transports")
					}
					if longOnly() && fastPlain {
						t.Skip("run by the fast tier")
					}
					t.Parallel()
					sc.run(t, newWorld(t, m))
				})
				if !sc.slow {
					continue
				}
				slow := m
				slow.slow = true
				t.Run(sc.name+"/slow", func(t *testing.T) {
					if testing.Short() && fastPlain {
						t.Skip("long tier: every held scenario in both transports")
					}
					if longOnly() && !fastPlain {
						t.Skip("run by the fast tier")
					}
					t.Parallel()
					sc.run(t, newWorld(t, slow))
				})
			}
		})
	}
}

// longOnly tells that the long tier runs after the fast tier in the same
// run (.ci/test --long sets TANKBOT_TEST_LONG_ONLY): a test that ran a
// sample under -short then runs only what the sample left out, instead of
// the whole again. Without it a test runs whole.
func longOnly() bool { return !testing.Short() && os.Getenv("TANKBOT_TEST_LONG_ONLY") != "" }
