package router

import (
	"context"
	"sync/atomic"
	"testing"

	"github.com/tankbot/tankbot/bot/app"
	"github.com/tankbot/tankbot/bot/view"
	"github.com/tankbot/tankbot/store"
)

// guildCounter is a Storage whose only working part is the server's
// settings, counting their reads (anything else it is asked panics: the
// test's requests need nothing else).
type guildCounter struct {
	app.Storage
	reads atomic.Int32
}

func (g *guildCounter) GuildSettings(_ context.Context, guild string) (store.GuildSettings, error) {
	g.reads.Add(1)
	return store.GuildSettings{Guild: guild, Locale: "th", Game: "camelot"}, nil
}

// The middleware reads nothing before the handler: the caller's locale and
// the server's settings are looked up when first asked for, once for the
// request and its copies.
func TestLookupsOnFirstUse(t *testing.T) {
	st := &guildCounter{}
	var atEntry int32 = -1
	var loc, pub, game string
	rt := newRouter(app.New(app.Config{}, st, nil, nil, nil), []app.CommandDef{{
		Name: "lookups",
		Run: func(_ *app.Bot, _ context.Context, r *app.Req) ([]view.Reply, error) {
			atEntry = st.reads.Load()
			loc, pub = r.Locale(), r.PubLoc()
			game = r.Server().Game
			r.Public().Server()
			r.Server()
			return []view.Reply{{Content: r.T("refuse.internal")}}, nil
		},
	}})
	rs := rt.Handle(t.Context(), app.Command{Kind: app.KindSlash, Name: "lookups", GuildID: "g1", Locale: "pt-BR"})
	if len(rs) != 1 {
		t.Fatalf("%d replies", len(rs))
	}
	if atEntry != 0 {
		t.Errorf("the server's settings were read %d times before the handler ran", atEntry)
	}
	if n := st.reads.Load(); n != 1 {
		t.Errorf("the server's settings were read %d times, want once", n)
	}
	if loc != "pt-BR" || pub != "th" || game != "camelot" {
		t.Errorf("locale %q, public %q, server's game %q; want pt-BR, th, camelot", loc, pub, game)
	}
}
