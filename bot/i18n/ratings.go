package i18n

// Ratings, leaderboards, profiles and the archive.
func init() {
	addTables("", map[string]map[string]string{English: enRatings, Thai: thRatings, Portuguese: ptRatings})
}

var enRatings = map[string]string{
	"opt.rated":        "Rated game: the result changes both players' ratings (default: yes)",
	"opt.ply":          "Show the position after this move (0: the start; default: the latest)",
	"challenge.casual": "Casual game: ratings do not change.",
	"archive.ply":      "Position after move {0} of {1}.",
	"cmd.leaderboard":  "The server's best players in a game",
	"cmd.profile":      "A player's ratings and recent games",
	"opt.user":         "Whose profile (default: yours)",

	"ratings.leaderboard.title":       "{0} leaderboard",
	"ratings.leaderboard.empty":       "No rated games of this game on this server yet.",
	"ratings.leaderboard.provisional": "*Provisional ratings (few games so far):*",
	"ratings.leaderboard.line":        "{0}. {1} · {2} · {3} games",
	"ratings.leaderboard.page":        "Page {0} of {1}",
	"ratings.leaderboard.prev":        "◀ Previous",
	"ratings.leaderboard.next":        "Next ▶",

	"ratings.profile.title":   "Profile of {0}",
	"ratings.profile.unrated": "No rated games on this server yet.",
	"ratings.profile.line":    "{0}: {1} (±{2}) · {3} W / {4} D / {5} L · longest winning streak {6}",
	"ratings.profile.recent":  "Last games",
	"ratings.profile.game":    "#{0} {1} vs {2}: {3} ({4})",
	"ratings.profile.records": "Record and replay of a game: /history game:#N",
	"ratings.casual":          "casual",
	"ratings.won":             "won",
	"ratings.lost":            "lost",
	"ratings.drew":            "drew",
	"ratings.noresult":        "no result",
	"ratings.change":          "{0} {1} → {2} ({3})",

	"refuse.ratings-unavailable": "Ratings are not available with this storage.",
	"refuse.no-game-number":      "There is no game {0} on this server.",
	"refuse.ply-range":           "Ply {0} does not exist: the game has {1} plies (0 is the start).",
}

var thRatings = map[string]string{
	"opt.rated":        "เกมจัดอันดับ: ผลการแข่งขันเปลี่ยนเรตติ้งของผู้เล่นทั้งสอง (ค่าเริ่มต้น: ใช่)",
	"opt.ply":          "แสดงตำแหน่งหลังตานี้ (0: ตำแหน่งเริ่มต้น; ค่าเริ่มต้น: ตาล่าสุด)",
	"challenge.casual": "เกมไม่จัดอันดับ: เรตติ้งจะไม่เปลี่ยน",
	"archive.ply":      "ตำแหน่งหลังตาที่ {0} จาก {1}",
	"cmd.leaderboard":  "ผู้เล่นอันดับต้นของเซิร์ฟเวอร์ในแต่ละเกม",
	"cmd.profile":      "เรตติ้งและเกมล่าสุดของผู้เล่น",
	"opt.user":         "โปรไฟล์ของใคร (ค่าเริ่มต้น: ของคุณ)",

	"ratings.leaderboard.title":       "ตารางอันดับ {0}",
	"ratings.leaderboard.empty":       "ยังไม่มีเกมจัดอันดับของเกมนี้ในเซิร์ฟเวอร์นี้",
	"ratings.leaderboard.provisional": "*เรตติ้งชั่วคราว (ยังเล่นไม่กี่เกม):*",
	"ratings.leaderboard.line":        "{0}. {1} · {2} · {3} เกม",
	"ratings.leaderboard.page":        "หน้า {0} จาก {1}",
	"ratings.leaderboard.prev":        "◀ ก่อนหน้า",
	"ratings.leaderboard.next":        "ถัดไป ▶",

	"ratings.profile.title":   "โปรไฟล์ของ {0}",
	"ratings.profile.unrated": "ยังไม่มีเกมจัดอันดับในเซิร์ฟเวอร์นี้",
	"ratings.profile.line":    "{0}: {1} (±{2}) · ชนะ {3} / เสมอ {4} / แพ้ {5} · ชนะติดกันนานที่สุด {6}",
	"ratings.profile.recent":  "เกมล่าสุด",
	"ratings.profile.game":    "#{0} {1} พบ {2}: {3} ({4})",
	"ratings.profile.records": "บันทึกและภาพเคลื่อนไหวของเกม: /history game:#N",
	"ratings.casual":          "ไม่จัดอันดับ",
	"ratings.won":             "ชนะ",
	"ratings.lost":            "แพ้",
	"ratings.drew":            "เสมอ",
	"ratings.noresult":        "ไม่มีผล",
	"ratings.change":          "{0} {1} → {2} ({3})",

	"refuse.ratings-unavailable": "ระบบจัดเก็บนี้ไม่รองรับเรตติ้ง",
	"refuse.no-game-number":      "ไม่มีเกม {0} ในเซิร์ฟเวอร์นี้",
	"refuse.ply-range":           "ไม่มีตาที่ {0}: เกมนี้มี {1} ตา (0 คือตำแหน่งเริ่มต้น)",
}

var ptRatings = map[string]string{
	"opt.rated":        "Partida valendo rating: o resultado altera o rating dos dois jogadores (padrão: sim)",
	"opt.ply":          "Mostrar a posição após este lance (0: o início; padrão: o último)",
	"challenge.casual": "Partida amistosa: os ratings não mudam.",
	"archive.ply":      "Posição após o lance {0} de {1}.",
	"cmd.leaderboard":  "Os melhores jogadores do servidor num jogo",
	"cmd.profile":      "Os ratings e as últimas partidas de um jogador",
	"opt.user":         "De quem é o perfil (padrão: o seu)",

	"ratings.leaderboard.title":       "Classificação de {0}",
	"ratings.leaderboard.empty":       "Ainda não há partidas valendo rating deste jogo neste servidor.",
	"ratings.leaderboard.provisional": "*Ratings provisórios (poucas partidas até agora):*",
	"ratings.leaderboard.line":        "{0}. {1} · {2} · {3} partidas",
	"ratings.leaderboard.page":        "Página {0} de {1}",
	"ratings.leaderboard.prev":        "◀ Anterior",
	"ratings.leaderboard.next":        "Próxima ▶",

	"ratings.profile.title":   "Perfil de {0}",
	"ratings.profile.unrated": "Ainda sem partidas valendo rating neste servidor.",
	"ratings.profile.line":    "{0}: {1} (±{2}) · {3} V / {4} E / {5} D · maior sequência de vitórias {6}",
	"ratings.profile.recent":  "Últimas partidas",
	"ratings.profile.game":    "#{0} {1} contra {2}: {3} ({4})",
	"ratings.profile.records": "Registro e replay de uma partida: /history game:#N",
	"ratings.casual":          "amistosa",
	"ratings.won":             "venceu",
	"ratings.lost":            "perdeu",
	"ratings.drew":            "empatou",
	"ratings.noresult":        "sem resultado",
	"ratings.change":          "{0} {1} → {2} ({3})",

	"refuse.ratings-unavailable": "Os ratings não estão disponíveis com este armazenamento.",
	"refuse.no-game-number":      "Não há partida {0} neste servidor.",
	"refuse.ply-range":           "O lance {0} não existe: a partida tem {1} lances (0 é o início).",
}
