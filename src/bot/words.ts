/**
 * Where the bot's problems become words: the one place (house style, after Sapphire's
 * user errors). Discord and the terminal game both call `describeBotProblem`; a `Frontend`
 * says how each writes a command's name, so the words can tell the user what to do next.
 *
 * Each message is short, says what happened and what to do, and never blames the user for
 * something the bot did (storage down, a move that crossed another).
 */
import { makePoint } from '../rules/point.ts';
import { describeCommunityProblem } from './communityProblems.ts';
import type { BotProblem } from './problems.ts';
import type { Outcome } from './gameTerms.ts';
import type { Frontend } from './frontend.ts';

export const discordFrontend: Frontend = {
  command: (name) => `/${name}`,
  who: (userId) => `<@${userId}>`,
  whose: (userId) => `<@${userId}>'s`,
  pointHelp: '/move suggests some as you type',
  date: (ms) => `<t:${Math.floor(ms / 1000)}:f>`,
  channel: (channelId) => `<#${channelId}>`,
  inChannel: 'in this channel',
  inServer: 'in this server',
  libraryTitle: "This server's library",
  howToMove: '/move',
  servers: true,
};

export const terminalFrontend: Frontend = {
  command: (name) => `\`${name}\``,
  who: () => 'You',
  whose: () => 'your',
  pointHelp: '`move` on its own lists some',
  date: (ms) => `${new Date(ms).toISOString().slice(0, 16).replace('T', ' ')} UTC`,
  channel: (channelId) => `channel ${channelId}`,
  inChannel: 'here',
  inServer: 'here',
  libraryTitle: 'My library',
  howToMove: 'type a point, a column letter and a row number such as h8',
  servers: false,
};

export function describeBotProblem(p: BotProblem, f: Frontend): string {
  const c = (name: string) => f.command(name);
  switch (p.code) {
    case 'no-game': {
      const where = p.elsewhere ?? [];
      if (p.against !== undefined && p.against.length > 0) {
        return `You have no game against me ${f.inChannel}: yours here ${p.against.length === 1 ? 'is' : 'are'} against ${p.against.map((id) => f.who(id)).join(' and ')}, and ${c('hint')} and ${c('threats')} are for games against me (between members, the moves are yours to find). Play it with ${c('move')}, or ${c('challenge')} me for a game of our own.`;
      }
      if (where.length === 0) return `You have no game ${f.inChannel}. Start one with ${c('challenge')}.`;
      const list = where.map((id) => f.channel(id));
      const named = list.length === 1 ? list[0] : `${list.slice(0, -1).join(', ')} and ${list[list.length - 1]}`;
      return `You have no game ${f.inChannel}: yours ${list.length === 1 ? 'is' : 'are'} in ${named}. Play there with ${c('move')}, or start one here with ${c('challenge')}.`;
    }
    case 'game-exists':
      return `You already have a game here (${p.size}×${p.size}, you play ${p.human}, ${plural(p.moves, 'move')} in). Play on with ${c('move')}, or ${c('resign')} it first.`;
    case 'game-over':
      return `That game is over: ${outcomeWords(p.outcome)}. Start a new one with ${c('challenge')}.`;
    case 'game-expired':
      return `Your game here expired after ${duration(p.idleMs)} without a move (on ${f.date(p.at)}); ${c('challenge')} to start a new one.`;
    case 'not-your-turn':
      return `It is not your turn: I still have to move. Look at ${c('board')} in a moment.`;
    case 'game-moved-on':
      return `The game moved on: another move of yours was being played when this one came in, so this one was not played. Look at ${c('board')} and move again.`;
    case 'bad-point':
      return `"${p.text}" is not a point. Write a column letter and a row number, like ${centreOf(p.size)} (the centre of this ${p.size}×${p.size} board).`;
    case 'point-off-board':
      return `${p.text} is off this ${p.size}×${p.size} board: columns a to ${String.fromCharCode(96 + p.size)}, rows 1 to ${p.size}.`;
    case 'occupied':
      return `${p.point} is taken. Pick an empty point: ${f.pointHelp}.`;
    case 'bad-option':
      return `${p.option} must be ${p.allowed}, not "${p.text}".`;
    case 'no-such-page':
      return `There is no page ${p.page}: the library has ${plural(p.pages, 'page')}.`;
    case 'no-such-game':
      return `This server has no finished game "${p.id}". ${c('games')} lists the recent ones, with their ids.`;
    case 'not-admin':
      return `Only members who can manage this server (the Manage Server permission) may ${p.what === 'memory' ? `change how I learn here (${c('memory')})` : 'reset its memory'}.`;
    case 'not-in-server':
      return `I play in servers only, and each server has its own memory. Challenge me in a server's channel.`;
    case 'not-your-button':
      return `That button answers someone else's request; use ${c(p.command ?? 'reset-memory')} to make your own.`;
    case 'storage-unavailable':
      return `Storage unavailable, try again in a moment. Nothing changed.`;
    case 'storage-uncertain':
      return `Storage is very slow: it did not confirm this in time, so I cannot tell whether it was saved. Look at ${c('board')} (or ${c('library')}) in a moment before you do it again.`;
    default:
      return describeCommunityProblem(p, f);
  }
}

/** "you won it", "I won it", … */
export function outcomeWords(o: Outcome): string {
  switch (o) {
    case 'bot-lost':
      return 'you won it';
    case 'bot-won':
      return 'I won it';
    case 'draw':
      return 'it was a draw';
    case 'abandoned':
      return 'it expired';
  }
}

/** "1 move", "3 moves"; "once", "twice", "3 times" for `time`. */
export function plural(n: number, noun: string): string {
  if (noun === 'time') return n === 1 ? 'once' : n === 2 ? 'twice' : `${n} times`;
  return `${n} ${noun}${n === 1 ? '' : 's'}`;
}

/** "24 hours", "90 minutes", "3 days". */
export function duration(ms: number): string {
  const minutes = Math.round(ms / 60_000);
  if (minutes < 120) return plural(minutes, 'minute');
  const hours = Math.round(ms / 3_600_000);
  if (hours <= 72) return plural(hours, 'hour');
  return plural(Math.round(hours / 24), 'day');
}

export function centreOf(size: number): string {
  const c = (size - 1) / 2;
  return makePoint(size, Math.floor(c) * size + Math.floor(c));
}
