package discord

import (
	"context"
	"log/slog"
	"regexp"
	"strings"
)

// Interaction and webhook tokens travel in URL paths, and Go's HTTP errors
// quote the URL: any log line may carry one. The redacting handler scrubs
// them, and the bot token, from every message and attribute.
var urlToken = regexp.MustCompile(`(/(?:interactions|webhooks)/[0-9A-Za-z_]+/)[^/\s"?]+`)

// NewRedactingHandler wraps h so that secrets (the bot token) and the
// tokens in interaction and webhook URLs never reach the log.
func NewRedactingHandler(h slog.Handler, secrets ...string) slog.Handler {
	var keep []string
	for _, s := range secrets {
		if s != "" {
			keep = append(keep, s)
		}
	}
	return &redacting{h: h, secrets: keep}
}

type redacting struct {
	h       slog.Handler
	secrets []string
}

func (r *redacting) scrub(s string) string {
	for _, sec := range r.secrets {
		s = strings.ReplaceAll(s, sec, "[redacted]")
	}
	return urlToken.ReplaceAllString(s, "${1}[redacted]")
}

func (r *redacting) attr(a slog.Attr) slog.Attr {
	v := a.Value.Resolve()
	switch v.Kind() {
	case slog.KindGroup:
		as := v.Group()
		out := make([]any, len(as))
		for i, x := range as {
			out[i] = r.attr(x)
		}
		return slog.Group(a.Key, out...)
	case slog.KindString:
		return slog.String(a.Key, r.scrub(v.String()))
	case slog.KindAny:
		// Errors and other values are logged by their text.
		return slog.String(a.Key, r.scrub(v.String()))
	}
	return slog.Attr{Key: a.Key, Value: v}
}

func (r *redacting) Enabled(ctx context.Context, l slog.Level) bool { return r.h.Enabled(ctx, l) }

func (r *redacting) Handle(ctx context.Context, rec slog.Record) error {
	out := slog.NewRecord(rec.Time, rec.Level, r.scrub(rec.Message), rec.PC)
	rec.Attrs(func(a slog.Attr) bool {
		out.AddAttrs(r.attr(a))
		return true
	})
	return r.h.Handle(ctx, out)
}

func (r *redacting) WithAttrs(as []slog.Attr) slog.Handler {
	out := make([]slog.Attr, len(as))
	for i, a := range as {
		out[i] = r.attr(a)
	}
	return &redacting{h: r.h.WithAttrs(out), secrets: r.secrets}
}

func (r *redacting) WithGroup(name string) slog.Handler {
	return &redacting{h: r.h.WithGroup(name), secrets: r.secrets}
}
