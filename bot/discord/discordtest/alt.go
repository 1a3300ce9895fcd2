package discordtest

import (
	"fmt"
	"strconv"
	"strings"
	"unicode/utf8"
)

// Alt text. Discord reads an uploaded file's description (its alt text,
// which screen readers read aloud) from the payload's attachments array,
// whose entry for the part files[n] has id n; a description over 1,024
// characters makes the message an invalid form body (docs/discord.md,
// "Uploading Files" and the attachment object). Discord takes an image
// without one; the fake does too, but fails the test: every image the bot
// sends must carry its alt text (issue 42).

// MaxAltText is Discord's limit on an attachment's description.
const MaxAltText = 1024

// attachmentsOf is the attachments array of a payload (a callback nests
// the message under data).
func attachmentsOf(payload map[string]any) []any {
	if d, ok := payload["data"].(map[string]any); ok {
		if atts, ok := d["attachments"].([]any); ok {
			return atts
		}
	}
	atts, _ := payload["attachments"].([]any)
	return atts
}

// describeUploads gives each file of c the description its attachments
// entry holds (by the n of its part files[n]).
func describeUploads(c *Call) {
	if len(c.Files) == 0 {
		return
	}
	byID := map[string]string{}
	for _, a := range attachmentsOf(c.Payload) {
		am, _ := a.(map[string]any)
		var id string
		switch v := am["id"].(type) {
		case float64:
			id = strconv.FormatInt(int64(v), 10)
		case string:
			id = v
		}
		if d, ok := am["description"].(string); ok && id != "" {
			byID[id] = d
		}
	}
	for k := range c.Files {
		n := strings.TrimSuffix(strings.TrimPrefix(c.Files[k].Field, "files["), "]")
		c.Files[k].Description = byID[n]
	}
}

// TooLongAltText names the first file of c whose description is over
// MaxAltText characters (Discord refuses the message), or "".
func TooLongAltText(c *Call) string {
	for _, f := range c.Files {
		if n := utf8.RuneCountInString(f.Description); n > MaxAltText {
			return fmt.Sprintf("%s: description of %d characters (at most %d)", f.Name, n, MaxAltText)
		}
	}
	return ""
}

// MissingAltText names the first image of c sent without a description,
// or "".
func MissingAltText(c *Call) string {
	for _, f := range c.Files {
		if strings.HasPrefix(f.ContentType, "image/") && strings.TrimSpace(f.Description) == "" {
			return f.Name + ": image without alt text (attachment description)"
		}
	}
	return ""
}

// checkAltText applies the rules to an upload: a status and body when
// Discord would refuse it (0: taken); an image without alt text fails the
// test but is taken.
func (f *Fake) checkAltText(c *Call) (status int, body map[string]any) {
	describeUploads(c)
	if why := TooLongAltText(c); why != "" {
		f.t.Errorf("fake discord: %s %s: %s", c.Method, c.Path, why)
		return 400, map[string]any{"message": "Invalid Form Body", "code": 50035, "errors": why}
	}
	if why := MissingAltText(c); why != "" && !f.AllowMissingAlt {
		f.t.Errorf("fake discord: %s %s: %s", c.Method, c.Path, why)
	}
	return 0, nil
}
