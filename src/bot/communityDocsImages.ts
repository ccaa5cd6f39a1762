/**
 * Writes the README's pictures of the community features (issue 28) to docs/images/:
 * `versus-five.png`, the end of a game between two members that the bot watched and learned
 * from (the paper's Fig. 3 chain, test/fixtures/games/learning/double-open-three.txt), and
 * `bot-rating.png`, the bot's rating over games against a member following its hints.
 * `npx tsx src/bot/communityDocsImages.ts`; everything is seeded. The replies' texts are printed
 * for the README's examples.
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseGameRecord } from '../rules/gameRecord.ts';
import { makePoint } from '../rules/point.ts';
import { expectOk } from '../rules/result.ts';
import { versusMovedView, withStandings } from './communityViews.ts';
import { openBotStorage } from './config.ts';
import { silentLog } from './log.ts';
import { GameService } from './service.ts';
import type { Seat } from './store.ts';
import { statsView } from './views.ts';
import { discordFrontend as f } from './words.ts';

const GAMES = 8;
const at = (userId: string): Seat => ({ guildId: 'readme', channelId: 'gomoku', userId });
const [alice, bob] = [at('1968'), at('1969')];

const dir = mkdtempSync(join(tmpdir(), 'gomoku-docs-'));
const storage = await openBotStorage({ DATA_DIR: dir }, silentLog, { durable: false });
let clock = Date.UTC(2025, 5, 1, 12);
const service = new GameService({ store: storage, seed: 1968, log: silentLog, now: () => (clock += 60_000) });
const out = new URL('../../docs/images/', import.meta.url);
mkdirSync(out, { recursive: true });
const save = (name: string, png: Buffer, text: string) => {
  writeFileSync(new URL(name, out), png);
  process.stdout.write(`docs/images/${name}: ${(png.length / 1024).toFixed(1)} KB\n${text}\n\n`);
};
const fail = (what: string, r: { ok: boolean; problem?: { code: string } }): never => {
  throw new Error(`${what}: ${r.problem?.code}`);
};

// A game between members, the bot refereeing and watching.
const record = expectOk(parseGameRecord(readFileSync(new URL('../../test/fixtures/games/learning/double-open-three.txt', import.meta.url), 'utf8')));
const invitation = await service.versus.invite(alice, bob.userId);
if (!invitation.ok) fail('invite', invitation);
else if (!(await service.versus.accept(bob, invitation.value)).ok) fail('accept', invitation);
for (let i = 0; i < record.moves.length; i++) {
  const played = await service.versus.move(i % 2 === 0 ? alice : bob, makePoint(19, record.moves[i]));
  if (!played.ok) fail('move', played);
  else if (played.value.kind === 'versus' && played.value.moved.stored.finished !== undefined) {
    const reply = versusMovedView(played.value.moved, f);
    save('versus-five.png', reply.images[0].png, reply.text);
  }
}

// Games against the bot, for its rating over time.
for (let g = 0; g < GAMES; g++) {
  await service.challenge(alice, { size: 15, level: 2 });
  for (;;) {
    const hint = await service.hint(alice);
    if (!hint.ok) fail('hint', hint);
    else {
      const moved = await service.move(alice, makePoint(15, hint.value.choice.point));
      if (!moved.ok) fail('move', moved);
      else if (moved.value.stored.finished !== undefined) {
        process.stdout.write(`game ${g + 1}: ${moved.value.stored.finished.outcome} in ${moved.value.game.moves.length} moves\n`);
        break;
      }
    }
  }
}
const [stats, standings] = await Promise.all([service.stats('readme'), service.ratings.standings('readme')]);
if (stats.ok) {
  const reply = withStandings(statsView(stats.value, f), standings, f);
  const chart = reply.images.find((i) => i.name === 'rating.png');
  if (chart !== undefined) save('bot-rating.png', chart.png, reply.text);
}
await service.idle();
await storage.close();
rmSync(dir, { recursive: true, force: true });
