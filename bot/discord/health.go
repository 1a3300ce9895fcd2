package discord

// Connected tells whether the gateway connection is up: discordgo sets
// DataReady at each acknowledged heartbeat and clears it on close. For
// /readyz of `tankbot run`.
func (a *Adapter) Connected() bool {
	a.s.RLock()
	defer a.s.RUnlock()
	return a.s.DataReady
}
