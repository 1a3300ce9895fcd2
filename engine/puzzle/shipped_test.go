package puzzle

import (
	"errors"
	"testing"
)

// ShippedByID finds a shipped puzzle by id; an id not shipped is
// ErrNotShipped, a game without a collection another error.
func TestShippedByID(t *testing.T) {
	ps, err := Shipped("camelot")
	if err != nil || len(ps) < 2 {
		t.Fatalf("shipped: %d, %v", len(ps), err)
	}
	want := ps[len(ps)-1]
	if got, err := ShippedByID("camelot", want.ID); err != nil || got != want {
		t.Fatalf("ShippedByID(%s) = %v, %v", want.ID, got, err)
	}
	if _, err := ShippedByID("gungi", want.ID); !errors.Is(err, ErrNotShipped) {
		t.Errorf("a Camelot id among Gungi's: %v, want ErrNotShipped", err)
	}
	if _, err := ShippedByID("chess", want.ID); err == nil || errors.Is(err, ErrNotShipped) {
		t.Errorf("a game without a collection: %v", err)
	}
}
