package i18n

import "github.com/tankbot/tankbot/imaging"

// Words in the board images: English comes from the imaging package (its
// built-in text when no catalog is passed), the other languages are
// translated in locales/<locale>/image.json. The images put a side chip and symbols where they say
// it better, so the texts are short: they share a 40 px header strip.
func init() {
	addTables("", map[string]map[string]string{English: imaging.Words})
}

// Text is T bound to locale, in the form imaging.Options.Text takes.
func Text(locale string) func(key string, args ...string) string {
	return func(key string, args ...string) string { return T(locale, key, args...) }
}
