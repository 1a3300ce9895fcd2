package i18n

import "github.com/tankbot/tankbot/engine/games"

// The games' rule errors in English, "err.<code>", from each game's
// descriptor; the other languages are in locales/<locale>/game-<game>.json.
func init() {
	for _, d := range games.Descriptors() {
		addTables("err.", map[string]map[string]string{English: d.Messages})
	}
}
