package bot

import "github.com/tankbot/tankbot/bot/names"

// PlainText is s with its names' marks removed: the names as typed.
func PlainText(s string) string { return names.PlainText(s) }

// MarkedText is s with each marked name replaced by f(name).
func MarkedText(s string, f func(name string) string) string { return names.MarkedText(s, f) }
