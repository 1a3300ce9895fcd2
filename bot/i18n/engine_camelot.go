package i18n

import "github.com/tankbot/tankbot/engine/camelot"

// Camelot rule errors (see engine_tank.go).
func init() {
	addEngine(camelot.Messages, map[string]map[string]string{Thai: thCamelot, Portuguese: ptCamelot})
}

var ptCamelot = map[string]string{
	"camelot.ambiguous":           "{0} pode significar vários lances: {1}; escreva a rota completa",
	"camelot.castle-moves-used":   "você já usou seus dois lances de castelo",
	"camelot.cfen-castles":        "os lances de castelo devem ser dois dígitos de 0 a 2 (Brancas e depois Pretas), veio {0}",
	"camelot.cfen-fields":         "um CFEN precisa de fileiras, lado e lances de castelo (e um número de lance opcional), veio {0} campos",
	"camelot.cfen-move-number":    "o número do lance deve ser positivo, veio {0}",
	"camelot.cfen-piece":          "fileira {0}, casa {1}: {2} não é uma peça (use K M k m ou .)",
	"camelot.cfen-rank-length":    "a fileira {0} deve ter {1} casas, veio {2}",
	"camelot.cfen-ranks":          "um CFEN precisa de 16 fileiras separadas por /, veio {0}",
	"camelot.cfen-side":           "o lado a jogar deve ser w ou b, veio {0}",
	"camelot.cfen-too-many":       "{0} tem {1} peças; cada lado tem no máximo 14",
	"camelot.foreign-move":        "isso não é um lance de Camelot",
	"camelot.illegal":             "{0} não é um lance legal",
	"camelot.knight-must-capture": "um Cavaleiro que galopa até onde pode saltar deve capturar: {0}",
	"camelot.must-capture":        "você deve capturar: {0}",
	"camelot.must-continue":       "uma cadeia de saltos deve continuar enquanto puder: {0}",
	"camelot.must-leave":          "sua peça em {0} deve sair do seu castelo agora: {1}",
	"camelot.no-moves":            "não há lances legais: a partida terminou",
	"camelot.no-piece":            "não há peça em {0}",
	"camelot.no-square":           "{0} não é uma casa do tabuleiro de Camelot",
	"camelot.not-yours":           "a peça em {0} não é sua",
	"camelot.own-castle":          "uma peça só entra no próprio castelo por salto",
	"camelot.stuck-in-castle":     "uma peça no castelo inimigo nunca pode sair dele",
	"camelot.syntax":              "não consigo ler {0}: escreva um lance como E7-E8, D6^D8^F8 ou E8xE10",
	"camelot.trailing":            "não consigo ler {0}: um lance termina na sua última casa, {1} não pode vir depois (lances de Camelot não levam sinal de xeque nem de captura)",
	"camelot.bad-char":            "não consigo ler {0}: {1} não faz parte de um lance (escreva casas como E7 com - ^ ou x entre elas)",
	"camelot.cfen-empty":          "a posição está vazia: dê uma CFEN ou deixe o mapa de fora para a posição inicial",
	"camelot.unknown-variant":     "variante de Camelot desconhecida {0}; a única é start",
}

var thCamelot = map[string]string{
	"camelot.ambiguous":           "{0} อาจหมายถึงหลายตาเดิน: {1} เขียนเส้นทางให้ครบ",
	"camelot.castle-moves-used":   "คุณใช้ตาเดินในปราสาทครบสองครั้งแล้ว",
	"camelot.cfen-castles":        "ตาเดินในปราสาทต้องเป็นเลขสองหลักตั้งแต่ 0 ถึง 2 (ขาวแล้วดำ) ได้ {0}",
	"camelot.cfen-fields":         "CFEN ต้องมีแถว ฝ่าย และตาเดินในปราสาท (และเลขตาถ้ามี) ได้ {0} ช่องข้อมูล",
	"camelot.cfen-move-number":    "เลขตาต้องเป็นจำนวนบวก ได้ {0}",
	"camelot.cfen-piece":          "แถว {0} ช่อง {1}: {2} ไม่ใช่หมาก (ใช้ K M k m หรือ .)",
	"camelot.cfen-rank-length":    "แถว {0} ต้องมี {1} ช่อง ได้ {2}",
	"camelot.cfen-ranks":          "CFEN ต้องมี 16 แถวคั่นด้วย / ได้ {0}",
	"camelot.cfen-side":           "ฝ่ายที่เดินต้องเป็น w หรือ b ได้ {0}",
	"camelot.cfen-too-many":       "{0} มีหมาก {1} ตัว แต่ละฝ่ายมีได้ไม่เกิน 14",
	"camelot.foreign-move":        "นี่ไม่ใช่ตาเดินของ Camelot",
	"camelot.illegal":             "{0} ไม่ใช่ตาเดินที่ถูกกติกา",
	"camelot.knight-must-capture": "อัศวินที่ควบไปยังที่ที่กระโดดได้ต้องกิน: {0}",
	"camelot.must-capture":        "คุณต้องกิน: {0}",
	"camelot.must-continue":       "การกระโดดต่อเนื่องต้องไปต่อตราบที่ทำได้: {0}",
	"camelot.must-leave":          "หมากของคุณที่ {0} ต้องออกจากปราสาทของคุณตอนนี้: {1}",
	"camelot.no-moves":            "ไม่มีตาเดินที่ถูกกติกา เกมจบแล้ว",
	"camelot.no-piece":            "ไม่มีหมากที่ {0}",
	"camelot.no-square":           "{0} ไม่ใช่ช่องบนกระดาน Camelot",
	"camelot.not-yours":           "หมากที่ {0} ไม่ใช่ของคุณ",
	"camelot.own-castle":          "หมากเข้าปราสาทของตนได้ด้วยการกระโดดเท่านั้น",
	"camelot.stuck-in-castle":     "หมากในปราสาทศัตรูออกไม่ได้อีก",
	"camelot.syntax":              "อ่าน {0} ไม่ได้ เขียนตาเดินแบบ E7-E8, D6^D8^F8 หรือ E8xE10",
	"camelot.trailing":            "อ่าน {0} ไม่ได้: ตาเดินจบที่ช่องสุดท้าย จะมี {1} ตามหลังไม่ได้ (ตาเดินของคาเมล็อตไม่มีเครื่องหมายรุกหรือกิน)",
	"camelot.bad-char":            "อ่าน {0} ไม่ได้: {1} ไม่ใช่ส่วนหนึ่งของตาเดิน (เขียนช่องแบบ E7 โดยมี - ^ หรือ x คั่น)",
	"camelot.cfen-empty":          "ตำแหน่งว่างเปล่า: ให้ CFEN หรือไม่ต้องระบุแผนที่เพื่อใช้ตำแหน่งเริ่มต้น",
	"camelot.unknown-variant":     "ไม่รู้จักรูปแบบ Camelot {0} มีแค่ start",
}
