package discord

import (
	"context"
	"time"
)

// InteractionDeduper is implemented by adapter Stores shared by the whole
// fleet (FromStore): FirstInteraction records interaction id and reports
// whether no instance handled it before, so a replayed or twice-delivered
// interaction can be answered harmlessly without running again (issue 24):
// Adapter.answer asks it before running the handler (docs/reliability.md).
type InteractionDeduper interface {
	FirstInteraction(ctx context.Context, id string, now time.Time) (bool, error)
	SeenInteraction(ctx context.Context, id string) (bool, error)
}

// FirstInteraction records interaction id in the database (kept at least
// store.InteractionMemory).
func (s storeMeta) FirstInteraction(ctx context.Context, id string, now time.Time) (bool, error) {
	return s.st.FirstInteraction(ctx, id, now)
}

// SeenInteraction reports whether interaction id was handled before.
func (s storeMeta) SeenInteraction(ctx context.Context, id string) (bool, error) {
	return s.st.SeenInteraction(ctx, id)
}
