package bot

import "github.com/tankbot/tankbot/bot/app"

// Discord's limits on a message, as the handlers respect them.
const (
	MaxContent          = app.MaxContent
	MaxEmbedTitle       = app.MaxEmbedTitle
	MaxEmbedDescription = app.MaxEmbedDescription
	MaxFieldName        = app.MaxFieldName
	MaxFieldValue       = app.MaxFieldValue
	MaxFields           = app.MaxFields
	MaxFooter           = app.MaxFooter
	MaxEmbedTotal       = app.MaxEmbedTotal
	MaxRows             = app.MaxRows
	MaxButtonsPerRow    = app.MaxButtonsPerRow
	MaxMenuOptions      = app.MaxMenuOptions
	MaxButtonLabel      = app.MaxButtonLabel
	MaxCustomID         = app.MaxCustomID
	MaxOptionText       = app.MaxOptionText
	MaxPlaceholder      = app.MaxPlaceholder
	MaxChoices          = app.MaxChoices
	MaxChoiceText       = app.MaxChoiceText
	MaxModalTitle       = app.MaxModalTitle
	MaxModalInputs      = app.MaxModalInputs
	MaxInputLabel       = app.MaxInputLabel
	MaxInputPlaceholder = app.MaxInputPlaceholder
	MaxFiles            = app.MaxFiles
	MaxFileDescription  = app.MaxFileDescription
)

// Clip shortens s to at most n runes without splitting a Discord token.
func Clip(s string, n int) string { return app.Clip(s, n) }

// FitReply returns r within Discord's limits (r is not modified).
func FitReply(r Reply) Reply { return app.FitReply(r) }

// FitChoices returns at most 25 autocomplete choices within Discord's limits.
func FitChoices(cs []Choice) []Choice { return app.FitChoices(cs) }

// WithoutFiles is r to send again after Discord refused its attachments.
func WithoutFiles(r Reply) Reply { return app.WithoutFiles(r) }

// PlainText is s with its names' marks removed: the names as typed.
func PlainText(s string) string { return app.PlainText(s) }

// MarkedText is s with each marked name replaced by f(name).
func MarkedText(s string, f func(name string) string) string { return app.MarkedText(s, f) }
