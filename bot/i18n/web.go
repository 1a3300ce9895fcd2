package i18n

// The web viewer's words (bot/web, docs/web.md): one block per language.
func init() {
	addTables("web.", map[string]map[string]string{English: enWeb, Thai: thWeb, Portuguese: ptWeb})
}

var enWeb = map[string]string{
	"watch":       "Watch / Replay",
	"description": "{0} vs {1} — {2}",
	"moves":       "Moves",
	"flip":        "Flip",
	"first":       "Start",
	"prev":        "Back",
	"next":        "Forward",
	"last":        "End",
	"download":    "Download",
	"record":      "record",
	"finalpng":    "board (PNG)",
	"gif":         "replay (GIF)",
	"live":        "Live",
	"language":    "Language",
	"board":       "The board",
	"players":     "Players",
}

var thWeb = map[string]string{
	"watch":       "ดู / ดูย้อนหลัง",
	"description": "{0} พบ {1} — {2}",
	"moves":       "ตาเดิน",
	"flip":        "กลับกระดาน",
	"first":       "เริ่มต้น",
	"prev":        "ย้อนกลับ",
	"next":        "ถัดไป",
	"last":        "ล่าสุด",
	"download":    "ดาวน์โหลด",
	"record":      "บันทึกเกม",
	"finalpng":    "กระดาน (PNG)",
	"gif":         "ภาพเคลื่อนไหว (GIF)",
	"live":        "สด",
	"language":    "ภาษา",
	"board":       "กระดาน",
	"players":     "ผู้เล่น",
}

var ptWeb = map[string]string{
	"watch":       "Assistir / Rever",
	"description": "{0} x {1} — {2}",
	"moves":       "Lances",
	"flip":        "Girar",
	"first":       "Início",
	"prev":        "Voltar",
	"next":        "Avançar",
	"last":        "Fim",
	"download":    "Baixar",
	"record":      "registro",
	"finalpng":    "tabuleiro (PNG)",
	"gif":         "replay (GIF)",
	"live":        "Ao vivo",
	"language":    "Idioma",
	"board":       "O tabuleiro",
	"players":     "Jogadores",
}
