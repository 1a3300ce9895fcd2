package discord

import (
	"context"
	"errors"

	"github.com/tankbot/tankbot/store"
)

// FromStore gives the adapter its Store on the bot's database: the command
// definitions hash in the store's meta table. (The messages replies become
// are recorded by the recorders the replies carry, bot.Reply.Sent.)
func FromStore(st *store.Store) Store {
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
