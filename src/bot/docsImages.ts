/**
 * Writes the README's pictures of the bot to docs/images/bot-*.png, from games played here
 * and now through the service (a member following the bot's hints against the bot at level 2
 * on 19×19): `npx tsx src/bot/docsImages.ts`. Everything is seeded, so the pictures
 * only change when the player, the analysis or the renderer do. The replies' texts are printed
 * too, for the README's examples.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { makePoint } from '../rules/point.ts';
import { openBotStorage } from './config.ts';
import { silentLog } from './log.ts';
import { GameService } from './service.ts';
import type { Moved } from './gameViews.ts';
import type { Seat } from './store.ts';
import { gamesView, replayView } from './replayViews.ts';
import { hintView, libraryView, movedView, statsView, threatsView } from './views.ts';
import type { Reply } from './reply.ts';
import { discordFrontend as f } from './words.ts';

const GAMES = 12;
const seat: Seat = { guildId: 'readme', channelId: 'gomoku', userId: '1968' };

const dir = mkdtempSync(join(tmpdir(), 'gomoku-docs-'));
const storage = await openBotStorage({ DATA_DIR: dir }, silentLog, { durable: false });
// A clock of its own, a minute a call from a fixed day, so the provenance dates do not change.
let clock = Date.UTC(2025, 5, 1, 12);
const service = new GameService({ store: storage, seed: 1968, log: silentLog, now: () => (clock += 60_000) });
const out = new URL('../../docs/images/', import.meta.url);
mkdirSync(out, { recursive: true });
const save = (name: string, reply: Reply) => {
  const png = reply.images[0].png;
  writeFileSync(new URL(name, out), png);
  process.stdout.write(`docs/images/${name}: ${(png.length / 1024).toFixed(1)} KB\n${reply.text}\n\n`);
};

let firstLoss: Moved | undefined;
let threats: Reply | undefined;
let threatCount = 0;
let hintReply: Reply | undefined;
for (let g = 0; g < GAMES; g++) {
  await service.challenge(seat, { size: 19, level: 2 });
  for (let n = 0; ; n++) {
    const hint = await service.hint(seat);
    if (!hint.ok) throw new Error(hint.problem.code);
    const point = makePoint(19, hint.value.choice.point);
    // The heat map of the first hint at move 30, when the board has taken shape.
    if (hintReply === undefined && hint.value.game.moves.length === 30) hintReply = hintView(hint.value);
    // The threats of the last game, at the position where both sides have the most.
    if (g === GAMES - 1) {
      const t = await service.threats(seat);
      const count = t.ok ? Math.min(t.value.black.length, t.value.white.length) * 100 + t.value.black.length + t.value.white.length : 0;
      if (t.ok && count > threatCount) {
        threatCount = count;
        threats = threatsView(t.value, f);
      }
    }
    const moved = await service.move(seat, point);
    if (!moved.ok) throw new Error(moved.problem.code);
    if (moved.value.stored.finished !== undefined) {
      if (moved.value.stored.finished.outcome === 'bot-lost' && firstLoss === undefined) firstLoss = moved.value;
      process.stdout.write(`game ${g + 1}: ${moved.value.stored.finished.outcome} in ${moved.value.game.moves.length} moves\n`);
      break;
    }
  }
}
if (firstLoss !== undefined) save('bot-move.png', movedView(firstLoss, f));
if (threats !== undefined) save('bot-threats.png', threats);
if (hintReply !== undefined) save('bot-hint.png', hintReply);
if (firstLoss !== undefined) {
  const replay = await service.replay(seat.guildId, firstLoss.stored.id);
  if (replay.ok) save('bot-replay.gif', replayView(replay.value, f));
}
const games = await service.games(seat.guildId);
if (games.ok) process.stdout.write(`${gamesView(games.value, f).text}\n\n`);
const page = await service.library(seat.guildId, 1);
if (page.ok) save('bot-library.png', libraryView(page.value, f));
const stats = await service.stats(seat.guildId);
if (stats.ok) save('bot-stats.png', statsView(stats.value, f));
await service.idle();
await storage.close();
rmSync(dir, { recursive: true, force: true });
