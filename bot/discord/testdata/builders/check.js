// Rebuilds every application command the bot registers with
// @discordjs/builders' SlashCommandBuilder, whose setters and toJSON run
// the library's validation (names, descriptions, localizations, options,
// choices, bounds, channel types, default member permissions, contexts and
// integration types). Reads the registration's JSON array on stdin and
// writes the builders' JSON array on stdout; a command the library refuses
// ends the process with status 1 and its error on stderr.
// Run by bot/discord/builders_test.go.
"use strict";

const { SlashCommandBuilder, SlashCommandSubcommandBuilder } = require("@discordjs/builders");

const STRING = 3, INTEGER = 4, BOOLEAN = 5, USER = 6, CHANNEL = 7, ROLE = 8, SUB = 1;

function named(b, o) {
  b.setName(o.name).setDescription(o.description);
  if (o.name_localizations) b.setNameLocalizations(o.name_localizations);
  if (o.description_localizations) b.setDescriptionLocalizations(o.description_localizations);
  return b;
}

function option(parent, o) {
  const common = (b) => {
    named(b, o);
    b.setRequired(!!o.required);
    return b;
  };
  switch (o.type) {
    case STRING:
      return parent.addStringOption((b) => {
        common(b);
        if (o.autocomplete) b.setAutocomplete(true);
        if (o.choices) b.addChoices(...o.choices);
        return b;
      });
    case INTEGER:
      return parent.addIntegerOption((b) => {
        common(b);
        if (o.autocomplete) b.setAutocomplete(true);
        if (o.choices) b.addChoices(...o.choices);
        if (o.min_value !== undefined) b.setMinValue(o.min_value);
        if (o.max_value !== undefined) b.setMaxValue(o.max_value);
        return b;
      });
    case BOOLEAN:
      return parent.addBooleanOption(common);
    case USER:
      return parent.addUserOption(common);
    case ROLE:
      return parent.addRoleOption(common);
    case CHANNEL:
      return parent.addChannelOption((b) => {
        common(b);
        if (o.channel_types) b.addChannelTypes(...o.channel_types);
        return b;
      });
    default:
      throw new Error(`option ${o.name}: type ${o.type} not handled by this check`);
  }
}

function build(c) {
  const b = named(new SlashCommandBuilder(), c);
  if (c.default_member_permissions !== undefined && c.default_member_permissions !== null) {
    b.setDefaultMemberPermissions(c.default_member_permissions);
  }
  if (c.contexts !== undefined) b.setContexts(...c.contexts);
  if (c.integration_types !== undefined) b.setIntegrationTypes(...c.integration_types);
  for (const o of c.options || []) {
    if (o.type === SUB) {
      b.addSubcommand((s) => {
        named(s, o);
        for (const so of o.options || []) option(s, so);
        return s;
      });
    } else {
      option(b, o);
    }
  }
  return b.toJSON();
}

let input = "";
process.stdin.setEncoding("utf8");
process.stdin.on("data", (d) => (input += d));
process.stdin.on("end", () => {
  const out = [];
  for (const c of JSON.parse(input)) {
    try {
      out.push(build(c));
    } catch (e) {
      process.stderr.write(`/${c.name}: ${e && e.message ? e.message : e}\n`);
      process.exit(1);
    }
  }
  process.stdout.write(JSON.stringify(out));
});
