package discord

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/tankbot/tankbot/store"
)

// /server and /data through the fake Discord, in both transports: the
// member's permissions come from the interaction (Manage Server = 32),
// refusals are ephemeral, the server's default game reaches /challenge,
// and /data exports a decodable file and deletes only after a confirm.
func TestE2EServerAndData(t *testing.T) {
	for _, m := range modes {
		t.Run(m.name, func(t *testing.T) {
			e := startBot(t, newWorld(t, m))
			r := response(t, e.do(e.slash(bob, gameChannel, "server", "default_game", "camelot")))
			if flags(r) != 64 || !strings.Contains(text(r), "Manage Server") {
				t.Fatalf("/server without Manage Server: flags %d %s", flags(r), text(r))
			}
			ev := e.slash(alice, gameChannel, "server", "default_game", "camelot")
			ev["member"].(map[string]any)["permissions"] = "32"
			r = response(t, e.do(ev))
			if flags(r) != 64 || !strings.Contains(text(r), "Server settings saved") || !strings.Contains(text(r), "Camelot") {
				t.Fatalf("/server as a manager: flags %d %s", flags(r), text(r))
			}
			r = response(t, e.do(e.slash(alice, gameChannel, "challenge")))
			if flags(r) == 64 || !strings.Contains(text(r), "Camelot") {
				t.Fatalf("open challenge with the server's default game: flags %d %s", flags(r), text(r))
			}

			r = response(t, e.do(e.slash(alice, gameChannel, "data", "request", "export")))
			if flags(r) != 64 || len(r.Files) != 1 {
				t.Fatalf("export: flags %d, %d files: %s", flags(r), len(r.Files), text(r))
			}
			var d store.UserData
			if err := json.Unmarshal(r.Files[0].Data, &d); err != nil || d.User != alice.id || len(d.Challenges) != 1 {
				t.Fatalf("export file: %v, user %s, %d challenges", err, d.User, len(d.Challenges))
			}
			r = response(t, e.do(e.slash(alice, gameChannel, "data", "request", "delete")))
			if flags(r) != 64 {
				t.Fatalf("delete did not ask privately: %s", text(r))
			}
			r = response(t, e.do(e.click(alice, gameChannel, r.MsgID, idWith(t, r, `^pd:yes$`))))
			if !strings.Contains(text(r), "Your data is deleted") {
				t.Fatalf("delete: %s", text(r))
			}
			r = response(t, e.do(e.slash(alice, gameChannel, "data", "request", "export")))
			var d2 store.UserData
			if len(r.Files) != 1 {
				t.Fatalf("second export: %s", text(r))
			}
			if err := json.Unmarshal(r.Files[0].Data, &d2); err != nil || len(d2.Challenges) != 0 {
				t.Fatalf("after deletion: %v, %d challenges", err, len(d2.Challenges))
			}
		})
	}
}
