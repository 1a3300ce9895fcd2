package discord

import "github.com/bwmarrin/discordgo"

// InvitePermissions is the permission integer of the invite URL in
// docs/discord.md: what posting boards, pings and game threads needs.
const InvitePermissions = discordgo.PermissionViewChannel |
	discordgo.PermissionSendMessages |
	discordgo.PermissionEmbedLinks |
	discordgo.PermissionAttachFiles |
	discordgo.PermissionReadMessageHistory |
	discordgo.PermissionCreatePublicThreads |
	discordgo.PermissionSendMessagesInThreads
