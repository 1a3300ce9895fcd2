package discordtest

import (
	"bytes"
	"encoding/json"
	"fmt"
	"mime/multipart"
	"net/http"
	"net/textproto"
	"strings"
	"sync"
	"testing"
)

// errorsTB records the fake's complaints instead of failing the test.
type errorsTB struct {
	*testing.T
	mu   sync.Mutex
	errs []string
}

func (e *errorsTB) Errorf(format string, args ...any) {
	e.mu.Lock()
	defer e.mu.Unlock()
	e.errs = append(e.errs, fmt.Sprintf(format, args...))
}

func (e *errorsTB) taken() []string {
	e.mu.Lock()
	defer e.mu.Unlock()
	out := e.errs
	e.errs = nil
	return out
}

// postUpload posts a channel message with one file part files[0] of
// contentType, described (when desc is not nil) in the attachments array.
func postUpload(t *testing.T, f *Fake, contentType string, desc *string) int {
	t.Helper()
	var b bytes.Buffer
	mw := multipart.NewWriter(&b)
	att := map[string]any{"id": 0, "filename": "board.png"}
	if desc != nil {
		att["description"] = *desc
	}
	pj, _ := json.Marshal(map[string]any{"content": "board", "attachments": []any{att}})
	_ = mw.WriteField("payload_json", string(pj))
	h := textproto.MIMEHeader{}
	h.Set("Content-Disposition", `form-data; name="files[0]"; filename="board.png"`)
	h.Set("Content-Type", contentType)
	w, _ := mw.CreatePart(h)
	_, _ = w.Write([]byte("\x89PNG fake"))
	_ = mw.Close()
	resp, err := http.Post(f.URL()+"/api/v9/channels/50/messages", mw.FormDataContentType(), &b)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	return resp.StatusCode
}

// TestAltTextRule: every uploaded image carries a non-empty description
// of at most 1,024 characters. Over the limit Discord refuses the message
// (400); without one Discord takes it and the fake fails the test.
func TestAltTextRule(t *testing.T) {
	tb := &errorsTB{T: t}
	f := New(tb, "app")
	str := func(s string) *string { return &s }

	if st := postUpload(t, f, "image/png", str("Tank Chess, game #1, move 1. White to move.")); st != 200 {
		t.Errorf("described image: status %d, want 200", st)
	}
	if errs := tb.taken(); len(errs) > 0 {
		t.Errorf("described image: complaints %q", errs)
	}
	calls := f.CallsFrom(0)
	if got := calls[len(calls)-1].Files[0].Description; got != "Tank Chess, game #1, move 1. White to move." {
		t.Errorf("recorded description %q", got)
	}

	if st := postUpload(t, f, "image/png", str(strings.Repeat("é", MaxAltText))); st != 200 {
		t.Errorf("description of exactly %d characters: status %d, want 200", MaxAltText, st)
	}
	if errs := tb.taken(); len(errs) > 0 {
		t.Errorf("description at the limit: complaints %q", errs)
	}

	if st := postUpload(t, f, "image/png", str(strings.Repeat("a", MaxAltText+1))); st != 400 {
		t.Errorf("description over the limit: status %d, want 400", st)
	}
	if errs := tb.taken(); len(errs) != 1 || !strings.Contains(errs[0], "1025 characters") {
		t.Errorf("description over the limit: complaints %q, want one", errs)
	}

	for name, desc := range map[string]*string{"no description": nil, "empty": str(""), "blank": str("  ")} {
		if st := postUpload(t, f, "image/png", desc); st != 200 {
			t.Errorf("%s: status %d, want 200 (Discord takes it)", name, st)
		}
		if errs := tb.taken(); len(errs) != 1 || !strings.Contains(errs[0], "without alt text") {
			t.Errorf("%s: complaints %q, want one about alt text", name, errs)
		}
	}

	// A file that is not an image (a record, an export) needs none.
	if st := postUpload(t, f, "text/plain", nil); st != 200 {
		t.Errorf("text file: status %d", st)
	}
	if errs := tb.taken(); len(errs) > 0 {
		t.Errorf("text file without description: complaints %q", errs)
	}
}
