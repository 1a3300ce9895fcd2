package console

import (
	"strings"
	"testing"
)

// The challenge's ping line is in the challenged player's language when
// the bot knows it (docs/discord.md): a Brazilian challenged on an
// English server reads the line that pings them in Portuguese.
func TestChallengePingInChallengedLanguage(t *testing.T) {
	s := newSession(t)
	s.run("joao: /settings language:pt-BR")
	out := s.run("somchai: /challenge joao color:white thread:false")
	if !strings.Contains(out, "somchai challenges joao") || !strings.Contains(out, "desafia @joao") {
		t.Errorf("the ping line is not in Portuguese:\n%s", out)
	}
}
