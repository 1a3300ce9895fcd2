package app_test

import (
	"sync"

	"github.com/tankbot/tankbot/bot/app"
	"github.com/tankbot/tankbot/bot/router"
)

// The tests of package app drive the bot as a transport does, through the
// router and the command table above it (handle_test.go).
func init() {
	var routers sync.Map // *app.Bot → *router.Router
	app.SetRouterFor(func(b *app.Bot) app.Routed {
		if rt, ok := routers.Load(b); ok {
			return rt.(*router.Router)
		}
		rt, _ := routers.LoadOrStore(b, router.New(b))
		return rt.(*router.Router)
	})
}
