package discord

import (
	"os"
	"strconv"
	"strings"
	"testing"
)

func TestInvitePermissionsMatchDocs(t *testing.T) {
	want := int64(1024 + 2048 + 16384 + 32768 + 65536 + 34359738368 + 274877906944)
	if InvitePermissions != want {
		t.Fatalf("InvitePermissions = %d, want %d", InvitePermissions, want)
	}
	doc, err := os.ReadFile("../../docs/discord.md")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(doc), "permissions="+strconv.FormatInt(want, 10)) {
		t.Errorf("docs/discord.md's invite URL does not carry permissions=%d", want)
	}
}
