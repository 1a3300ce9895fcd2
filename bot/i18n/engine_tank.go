package i18n

import "github.com/tankbot/tankbot/engine/tank"

// Tank Chess rule errors: English comes from the engine's own templates,
// the other languages are translated here, key "err.<code>".
func init() {
	addEngine(tank.Messages, map[string]map[string]string{
		Thai:       thTank,
		Portuguese: ptTank,
	})
}

// addEngine registers a game's error codes under "err.<code>".
func addEngine(english map[string]string, others map[string]map[string]string) {
	for code, tmpl := range english {
		en["err."+code] = tmpl
	}
	for loc, m := range others {
		for code, tmpl := range m {
			tables[loc]["err."+code] = tmpl
		}
	}
}

var ptTank = map[string]string{
	"tank.tfen-fields":           "uma posição tem de 2 a 4 campos (fileiras, lado a jogar, número do lance, 'escaped'), não {0}",
	"tank.tfen-size":             "um tabuleiro tem de 8 a 26 fileiras, este tem {0}",
	"tank.tfen-empty":            "a posição está vazia: indique um nome de mapa ou uma TFEN",
	"tank.tfen-rank-count":       "foram dadas {0} fileiras, mas as fileiras têm {1} casas e um tabuleiro {1}×{1} precisa de {1} fileiras",
	"tank.tfen-rank-width":       "a fileira {0} tem {1} casas, mas um tabuleiro de {2} fileiras é {2}×{2} e precisa de {2} casas em cada fileira",
	"tank.tfen-token":            "fileira {0}, coluna {1} ({2}): não consigo ler {3}",
	"tank.tfen-side":             "o lado a jogar deve ser w ou b, não {0}",
	"tank.tfen-move-number":      "o número do lance deve ser um inteiro a partir de 1, não {0}",
	"tank.tfen-field":            "campo inesperado {0} (só 'escaped' pode vir depois do número do lance)",
	"tank.tfen-clt-count":        "{0} tem {1} CLTs; cada lado tem no máximo um",
	"tank.tfen-two-wrecked-clts": "os dois CLTs estão destruídos; a partida termina no primeiro",
	"tank.tfen-escape-wreck":     "uma partida não pode terminar por fuga e por CLT destruído ao mesmo tempo",
	"tank.tfen-escape-clt":       "'escaped' diz que o CLT de {0} saiu do tabuleiro, mas ele ainda está nele",
	"tank.unknown-map":           "mapa desconhecido {0} (mapas: {1})",
	"tank.map-wreck":             "um mapa não tem destroços, mas {0} é um destroço",
	"tank.map-turn":              "um mapa começa com as Brancas a jogar no lance 1",
	"tank.map-symmetry":          "um mapa deve ter simetria central: {0} e {1} não se espelham",
	"tank.map-zone":              "o {0} em {1} está fora das três primeiras fileiras do seu lado",
	"tank.map-facing":            "o {0} em {1} deve começar virado para {2}",
	"tank.map-clt":               "cada lado precisa de exatamente um CLT; {0} tem {1}",
	"tank.map-army":              "um mapa {0}×{0} precisa do exército {1}, mas as Brancas têm {2}",
	"tank.map-escaped":           "um mapa não pode ser uma partida terminada",
	"tank.map-move-number":       "um mapa começa no lance 1, não {0}",
	"tank.game-over":             "a partida terminou",
	"tank.not-a-tank-move":       "isso não é um lance de Tank Chess",
	"tank.syntax":                "não consigo ler o lance {0}: {1}",
	"tank.bad-suffix":            "um lance não pode terminar com {0}: os únicos finais são + (XEQUE), - (FUGA) e +- (ambos)",
	"tank.bad-square":            "{0} não é uma casa deste tabuleiro",
	"tank.no-piece":              "não há peça em {0}",
	"tank.not-yours":             "a peça em {0} não é sua",
	"tank.wrecked-piece":         "a peça em {0} é um destroço",
	"tank.no-escape":             "o CLT em {0} não consegue chegar à borda oposta e sair dela nesta vez",
	"tank.only-clt-escapes":      "só o CLT pode sair do tabuleiro; a peça em {0} é um {1}",
	"tank.unreachable":           "o {0} em {1} (velocidade {2}) não consegue terminar em {3} virado para {4} nesta vez",
	"tank.same-pose":             "o {0} em {1} deve terminar em outra casa ou outra direção",
	"tank.illegal":               "{0} não é um lance legal",
	"tank.no-target":             "não há peça em {0} para atirar",
	"tank.own-target":            "a peça em {0} é sua",
	"tank.wreck-target":          "a peça em {0} já é um destroço",
	"tank.self-target":           "uma peça não pode atirar em si mesma",
	"tank.out-of-arc":            "{0} não está numa linha de tiro do {1} em {2} virado para {3}",
	"tank.adjacent":              "{0} é vizinha de {1}: deve haver uma casa vazia entre atirador e alvo",
	"tank.blocked":               "a linha de tiro de {0} a {1} está bloqueada em {2}",
	"tank.mortar-range":          "um morteiro só acerta de 3 a 5 casas à frente; {0} não está",
	"tank.weak-shot":             "canhão {1} de {0} não vence a blindagem {3} {4} de {2}",
	"tank.escape-no-fire":        "um CLT que foge não pode atirar",
}

var thTank = map[string]string{
	"tank.tfen-fields":           "ตำแหน่งต้องมี 2 ถึง 4 ช่องข้อมูล (แถว ฝ่ายที่เดิน เลขตา 'escaped') ไม่ใช่ {0}",
	"tank.tfen-size":             "กระดานต้องมี 8 ถึง 26 แถว กระดานนี้มี {0}",
	"tank.tfen-empty":            "ตำแหน่งว่างเปล่า: ระบุชื่อแผนที่หรือ TFEN",
	"tank.tfen-rank-count":       "ให้มา {0} แถว แต่แต่ละแถวมี {1} ช่อง กระดาน {1}×{1} ต้องมี {1} แถว",
	"tank.tfen-rank-width":       "แถว {0} มี {1} ช่อง แต่กระดาน {2} แถวมีขนาด {2}×{2} และทุกแถวต้องมี {2} ช่อง",
	"tank.tfen-token":            "แถว {0} คอลัมน์ {1} ({2}): อ่าน {3} ไม่ได้",
	"tank.tfen-side":             "ฝ่ายที่เดินต้องเป็น w หรือ b ไม่ใช่ {0}",
	"tank.tfen-move-number":      "เลขตาต้องเป็นจำนวนเต็มตั้งแต่ 1 ไม่ใช่ {0}",
	"tank.tfen-field":            "ช่องข้อมูล {0} ไม่คาดคิด (หลังเลขตามีได้แค่ 'escaped')",
	"tank.tfen-clt-count":        "{0} มี CLT {1} คัน แต่ละฝ่ายมีได้ไม่เกินหนึ่ง",
	"tank.tfen-two-wrecked-clts": "CLT ถูกทำลายทั้งสองคัน เกมจบตั้งแต่คันแรก",
	"tank.tfen-escape-wreck":     "เกมจบด้วยการหนีและ CLT ถูกทำลายพร้อมกันไม่ได้",
	"tank.tfen-escape-clt":       "'escaped' บอกว่า CLT ของ {0} ออกจากกระดานแล้ว แต่ยังอยู่บนกระดาน",
	"tank.unknown-map":           "ไม่รู้จักแผนที่ {0} (แผนที่: {1})",
	"tank.map-wreck":             "แผนที่ต้องไม่มีซาก แต่ {0} เป็นซาก",
	"tank.map-turn":              "แผนที่เริ่มโดยฝ่ายขาวเดินที่ตา 1",
	"tank.map-symmetry":          "แผนที่ต้องสมมาตรรอบจุดกลาง: {0} กับ {1} ไม่สะท้อนกัน",
	"tank.map-zone":              "{0} ที่ {1} อยู่นอกสามแถวแรกของฝ่ายตน",
	"tank.map-facing":            "{0} ที่ {1} ต้องหันไปทาง {2} ตอนเริ่ม",
	"tank.map-clt":               "แต่ละฝ่ายต้องมี CLT หนึ่งคันพอดี {0} มี {1}",
	"tank.map-army":              "แผนที่ {0}×{0} ต้องมีกองทัพ {1} แต่ฝ่ายขาวมี {2}",
	"tank.map-escaped":           "แผนที่ต้องไม่ใช่เกมที่จบแล้ว",
	"tank.map-move-number":       "แผนที่เริ่มที่ตา 1 ไม่ใช่ {0}",
	"tank.game-over":             "เกมจบแล้ว",
	"tank.not-a-tank-move":       "นี่ไม่ใช่ตาเดินของ Tank Chess",
	"tank.syntax":                "อ่านตาเดิน {0} ไม่ได้: {1}",
	"tank.bad-suffix":            "ตาเดินลงท้ายด้วย {0} ไม่ได้: ลงท้ายได้เพียง + (รุก), - (หนี) หรือ +- (ทั้งสองอย่าง)",
	"tank.bad-square":            "{0} ไม่ใช่ช่องบนกระดานนี้",
	"tank.no-piece":              "ไม่มีหมากที่ {0}",
	"tank.not-yours":             "หมากที่ {0} ไม่ใช่ของคุณ",
	"tank.wrecked-piece":         "หมากที่ {0} เป็นซาก",
	"tank.no-escape":             "CLT ที่ {0} ไปถึงขอบฝั่งตรงข้ามและออกไปในตานี้ไม่ได้",
	"tank.only-clt-escapes":      "มีแค่ CLT ที่ออกจากกระดานได้ หมากที่ {0} เป็น {1}",
	"tank.unreachable":           "{0} ที่ {1} (ความเร็ว {2}) ไปจบที่ {3} หันทาง {4} ในตานี้ไม่ได้",
	"tank.same-pose":             "{0} ที่ {1} ต้องจบที่ช่องอื่นหรือหันทางอื่น",
	"tank.illegal":               "{0} ไม่ใช่ตาเดินที่ถูกกติกา",
	"tank.no-target":             "ไม่มีหมากที่ {0} ให้ยิง",
	"tank.own-target":            "หมากที่ {0} เป็นของคุณเอง",
	"tank.wreck-target":          "หมากที่ {0} เป็นซากอยู่แล้ว",
	"tank.self-target":           "หมากยิงตัวเองไม่ได้",
	"tank.out-of-arc":            "{0} ไม่อยู่ในแนวยิงของ {1} ที่ {2} ซึ่งหันทาง {3}",
	"tank.adjacent":              "{0} อยู่ติดกับ {1}: ต้องมีช่องว่างระหว่างผู้ยิงกับเป้า",
	"tank.blocked":               "แนวยิงจาก {0} ไป {1} ถูกขวางที่ {2}",
	"tank.mortar-range":          "ปืนครกยิงได้แค่ 3 ถึง 5 ช่องตรงไปข้างหน้า {0} ไม่อยู่ในระยะ",
	"tank.weak-shot":             "ปืน {1} ของ {0} ไม่ชนะเกราะ{3} {4} ของ {2}",
	"tank.escape-no-fire":        "CLT ที่หนีจะยิงไม่ได้",
}
