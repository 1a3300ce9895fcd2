package i18n

import "github.com/tankbot/tankbot/imaging"

// Words in the board images: English comes from the imaging package (its
// built-in text when no catalog is passed), the other languages are
// translated here. The images put a side chip and symbols where they say
// it better, so the texts are short: they share a 40 px header strip.
func init() {
	addTables("", map[string]map[string]string{English: imaging.Words, Thai: thImage, Portuguese: ptImage})
}

var thImage = map[string]string{
	"image.white":        "ขาว",
	"image.black":        "ดำ",
	"image.to-move":      "ฝ่าย{0}เดิน",
	"image.move":         "ตาที่ {0}",
	"image.turn":         "ตาที่ {0}",
	"image.game-over":    "จบเกม",
	"image.wins":         "ฝ่าย{0}ชนะ",
	"image.draw":         "เสมอ",
	"image.check":        "รุก!",
	"image.escape":       "หนี!",
	"image.must-capture": "ต้องกิน",
	"image.must-leave":   "ต้องออกจากปราสาท",
	"image.draft":        "จัดทัพ",
	"image.draft-place":  "จัดทัพ · ฝ่าย{0}วางหมาก",
	"image.draft-alone":  "จัดทัพ · ฝ่าย{0}วางต่อคนเดียว",
	"image.hand":         "หมากในมือฝ่าย{0}",
	"image.ready":        "พร้อม",
	"image.hand-count":   "ในมือ {0} · บนกระดาน {1}/26",
}

var ptImage = map[string]string{
	"image.white":        "Brancas",
	"image.black":        "Pretas",
	"image.to-move":      "Vez das {0}",
	"image.move":         "Lance {0}",
	"image.turn":         "Turno {0}",
	"image.game-over":    "Fim de jogo",
	"image.wins":         "{0} vencem",
	"image.draw":         "Empate",
	"image.check":        "XEQUE",
	"image.escape":       "FUGA",
	"image.must-capture": "CAPTURA OBRIGATÓRIA",
	"image.must-leave":   "SAIA DO CASTELO",
	"image.draft":        "MONTAGEM",
	"image.draft-place":  "Montagem · {0} colocam",
	"image.draft-alone":  "Montagem · {0} colocam sozinhas",
	"image.hand":         "Mão das {0}",
	"image.ready":        "PRONTO",
	"image.hand-count":   "{0} na mão · {1}/26 no tabuleiro",
}

// Text is T bound to locale, in the form imaging.Options.Text takes.
func Text(locale string) func(key string, args ...string) string {
	return func(key string, args ...string) string { return T(locale, key, args...) }
}
