package discord

import (
	"context"
	"errors"

	"github.com/tankbot/tankbot/store"
)

// FromStore gives the adapter its Store on the bot's database: the command
// definitions hash in the store's meta table, each game's board message
// (cancelling its move's fallback ping) and each challenge's message.
func FromStore(st *store.Store) interface {
	Store
	BoardRecorder
	ChallengeRecorder
} {
	return storeMeta{st}
}

type storeMeta struct{ st *store.Store }

func (s storeMeta) GetMeta(ctx context.Context, key string) (string, error) {
	v, err := s.st.Meta(ctx, key)
	if errors.Is(err, store.ErrNotFound) {
		return "", nil
	}
	return v, err
}

// SwapMeta is an atomic compare-and-set when the store provides one (a
// database shared by several instances); see MetaSwapper.
func (s storeMeta) SwapMeta(ctx context.Context, key, old, new string) (bool, error) {
	sw, ok := any(s.st).(MetaSwapper)
	if !ok {
		// A store without it serves one instance: read and write.
		cur, err := s.GetMeta(ctx, key)
		if err != nil || cur != old {
			return false, err
		}
		return true, s.SetMeta(ctx, key, new)
	}
	return sw.SwapMeta(ctx, key, old, new)
}

func (s storeMeta) SetMeta(ctx context.Context, key, value string) error {
	return s.st.SetMeta(ctx, key, value)
}

// SetChallengeMessage records the message carrying a challenge.
func (s storeMeta) SetChallengeMessage(ctx context.Context, id int64, messageID string) error {
	return s.st.SetChallengeMessage(ctx, id, messageID)
}

// RecordBoard records the board message (channelID aside: the game row
// knows where it is played), keeps its webhook and cancels the fallback
// pings it answers, in one transaction.
func (s storeMeta) RecordBoard(ctx context.Context, gameID int64, seq int, _, messageID string, hook store.BoardHook) error {
	return s.st.RecordBoardVia(ctx, gameID, seq, messageID, hook)
}

// RecordPendingBoard records a board about to be sent as an interaction's
// answer (store.RecordPendingBoard).
func (s storeMeta) RecordPendingBoard(ctx context.Context, gameID int64, seq int, hook store.BoardHook) error {
	return s.st.RecordPendingBoard(ctx, gameID, seq, hook)
}
