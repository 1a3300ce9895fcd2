package engine

// Descriptor is what a front end needs to present a game beyond its rules:
// example moves, the variant to show off, how its guided picker orders and
// names the steps of a move, and the catalog keys of the words its facts
// and shortcuts carry. Each game package declares its own (its
// descriptor.go) and engine/games lists them, so the bot holds no game's
// name or special case.
type Descriptor struct {
	Rules Rules
	// Examples are moves in the game's notation by variant name, each
	// legal at that variant's start (a test checks): what the bot shows
	// as "for example".
	Examples map[string][]string
	// Showcase is the variant whose start /rules draws ("": the first);
	// a draft that starts on an empty board shows a formation instead.
	Showcase string
	// Picker orders and labels the steps of a move (Move.Steps) in the
	// guided move picker.
	Picker PickerStyle
	// Words maps values that facts and shortcuts carry as arguments
	// (Fact.Args, Shortcut.Args: "placing", a formation's id) to catalog
	// keys, so players read words rather than ids.
	Words map[string]string
	// Legend is how to read the game's position string drawn as a text
	// grid (the console's board), in English: piece letters, other
	// square marks and the fields after the board.
	Legend string
	// Messages are the English templates of the game's rule errors by
	// code (Error.Code), "{0}" placeholders for Error.Args.
	Messages map[string]string
}

// Translator returns the catalog text of key with args in the reader's
// language (the bot passes its catalog).
type Translator func(key string, args ...string) string

// PickerStyle is how the move picker presents a game's steps. The zero
// value is a plain style: steps in natural order, labelled as notation.
type PickerStyle struct {
	// Prompts name what each level chooses; the picker's placeholder is
	// the catalog's "movepick.prompt.<name>". Levels beyond get "step".
	Prompts []string
	// Rank orders the steps of a level before the natural order (nil:
	// natural order only).
	Rank func(level int, step string) int
	// Label names a step in words ("" keeps the notation); chosen are the
	// steps chosen before it.
	Label func(t Translator, pos Position, level int, chosen []string, step string) string
}

// Example is the descriptor's first example move of variant, else of its
// first variant with one; "" when it has none.
func (d Descriptor) Example(variant string) string {
	if ex := d.Examples[variant]; len(ex) > 0 {
		return ex[0]
	}
	if d.Rules != nil {
		for _, v := range d.Rules.Variants() {
			if ex := d.Examples[v.Name]; len(ex) > 0 {
				return ex[0]
			}
		}
	}
	return ""
}
