package discord

import (
	"encoding/json"
	"testing"

	"github.com/bwmarrin/discordgo"
)

// FuzzToCommand feeds arbitrary interaction JSON (what the gateway could
// send) through the conversion: it must never panic.
func FuzzToCommand(f *testing.F) {
	h := &harness{}
	for _, ev := range []map[string]any{
		h.slashSeed(), h.base(4, alice, "1", map[string]any{"name": "move", "options": []any{map[string]any{"name": "move", "type": 3, "value": "e", "focused": true}}}),
		h.base(3, alice, "1", map[string]any{"custom_id": "g:1:2:move", "component_type": 3, "values": []any{"a"}}),
		h.base(5, alice, "1", map[string]any{"custom_id": "x", "components": []any{map[string]any{"type": 1, "components": []any{map[string]any{"type": 4, "custom_id": "m", "value": "v"}}}}}),
	} {
		b, _ := json.Marshal(ev)
		f.Add(b)
	}
	f.Add([]byte(`{"type":2,"data":null}`))
	f.Add([]byte(`{"type":5,"data":{"components":[{"type":1,"components":[{"type":2}]}]}}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		var i discordgo.Interaction
		if json.Unmarshal(data, &i) != nil {
			return
		}
		c, _ := toCommand(&i, nil)
		if c.Options == nil && (i.Type == discordgo.InteractionApplicationCommand) {
			t.Fatalf("slash command without options map")
		}
	})
}

func (h *harness) slashSeed() map[string]any {
	return h.base(2, alice, "1", map[string]any{"name": "challenge", "options": []any{
		map[string]any{"name": "opponent", "type": 6, "value": "202"},
		map[string]any{"name": "thread", "type": 5, "value": true},
		map[string]any{"name": "n", "type": 4, "value": 3},
		map[string]any{"name": "sub", "type": 1, "options": []any{map[string]any{"name": "x", "type": 3, "value": "y"}}},
	}, "resolved": map[string]any{"users": map[string]any{"202": map[string]any{"id": "202", "username": "bob"}}, "members": map[string]any{"202": map[string]any{"nick": "Bobby"}}}})
}
