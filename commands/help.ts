/**
 * /help — the rules (exactly five wins; six or more does not; black first; 19×19 or 15×15),
 * every command in a line, and how the bot learns, with a picture of a five and a six. Only
 * the asker sees it. It needs no game and no storage, so it works in a DM too.
 */
import { SlashCommandBuilder, type ChatInputCommandInteraction } from 'discord.js';
import { helpView } from '../src/bot/views.ts';
import { discordFrontend as f } from '../src/bot/words.ts';
import type { CommandContext } from '../src/discord/command.ts';

export const data = new SlashCommandBuilder().setName('help').setDescription('The rules of Go-Moku, my commands, and how I learn');

export async function execute(interaction: ChatInputCommandInteraction, ctx: CommandContext): Promise<void> {
  return ctx.answer(interaction, helpView(f), { deferPrivately: true });
}
