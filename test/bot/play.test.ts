// The terminal game (`gomoku play`, and `npm start` without DISCORD_TOKEN): a scripted member
// who follows the bot's hints beats it, sees what it learned, its stats, resets its memory;
// every image is written as a PNG; and `npm start` with no token says so and plays.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { PassThrough } from 'node:stream';
import { afterEach, describe, expect, it } from 'vitest';
import { openBotStorage } from '../../src/bot/config.ts';
import { silentLog } from '../../src/bot/log.ts';
import { gameKey } from '../../src/bot/records.ts';
import { runPlay, TERMINAL_SEAT } from '../../src/bot/terminal.ts';
import { NO_TOKEN_NOTICE } from '../../src/discord/main.ts';
import type { CliIO } from '../../src/bot/io.ts';
import { decode } from '../render/png.ts';
import { spawnStart } from './botProcess.ts';
import { tempDir } from './support.ts';

const removals: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const r of removals.splice(0)) await r();
});

function capture(): { io: CliIO; text: () => string } {
  let out = '';
  const io: CliIO = {
    out: (t) => void (out += `${t}\n`),
    err: (t) => void (out += `ERR ${t}\n`),
    readFile: (p) => readFileSync(p, 'utf8'),
  };
  return { io, text: () => out };
}

describe('gomoku play', () => {
  it('plays a whole game in the terminal, learns from the loss, and writes the images', async () => {
    const { dir, remove } = await tempDir('play');
    removals.push(remove);
    const { io, text } = capture();
    const out = join(dir, 'out');
    // A member who reads the screen: asks for a hint, plays it, until the game is over.
    async function* member(): AsyncGenerator<string> {
      yield 'help';
      yield 'challenge 15 1';
      yield 'challenge 19';
      // Should a game not end in the member's win (a change to the player), challenge again.
      for (let i = 0; i < 400; i++) {
        yield 'hint';
        const point = [...text().matchAll(/^Try ([a-o]\d+)\. /gm)].at(-1)?.[1];
        if (point === undefined) throw new Error(`no hint in:\n${text()}`);
        yield i % 2 === 0 ? point : `move ${point}`;
        if (/You win/.test(text())) break;
        if (/I win|Draw:/.test(text().split('Try ').at(-1) ?? '')) yield 'challenge 15 1';
      }
      yield 'threats';
      yield 'library';
      yield 'stats';
      yield 'move q99';
      yield 'challenge 17';
      yield 'challenge 15 19';
      yield 'resign now please';
      yield 'library 0x2';
      yield 'reset';
      yield 'no';
      yield 'reset';
      yield 'yes';
      yield 'library';
      yield 'dance';
      yield 'quit';
      yield 'never read';
    }
    const code = await runPlay({ io, lines: member(), env: { DATA_DIR: join(dir, 'data'), GOMOKU_SEED: '3' }, outDir: out });
    expect(code).toBe(0);
    const said = text();
    expect(said).toContain('You challenged me to Go-Moku: 15×15, you play black, level 1.');
    expect(said).toContain('You already have a game here (15×15, you play black, 0 moves in). Play on with "move", or "resign" it first.');
    expect(said).toMatch(/You win with five at/);
    expect(said).toMatch(/I walked back through the game and learned \d+ new subgoals?: "\(1\)/);
    expect(said).toMatch(/^ {4}a b c d e f g h i j k l m n o$/m);
    expect(said).toContain("My library: ");
    expect(said).toMatch(/Finished games: \d+ — members won 1, I won \d+, \d+ draws?\./);
    // stats shows the ratings each game's end reports, as /stats does.
    expect(said).toContain('Ratings (Glicko-2; a new player starts at 1500; ? while a rating is still uncertain; a resignation counts as a loss)');
    expect(said).toMatch(/^[12]\. You \d+\?? · 1 won, \d+ lost/m);
    expect(said).toMatch(/Library by source: \d+ from games I lost, \d+ from games I won/);
    // The terminal has no channels or servers: its sentences say "here" and "my".
    expect(said).toContain('Go-Moku here');
    expect(said).not.toContain('this server');
    expect(said).not.toContain('this channel');
    expect(said).toContain('This forgets everything I have learned here: ');
    expect(said).toContain('Your move (black): type a point, a column letter and a row number such as h8.');
    expect(said).toContain('That game is over: you won it. Start a new one with "challenge".');
    expect(said).toContain('challenge must be a size (15 or 19), a colour (black, white or random) or a level (1 to 5), each once, not "17".');
    // A second size is not guessed at, words after a command that takes none stop it, and a page is digits.
    expect(said).toContain('challenge must be a size (15 or 19), a colour (black, white or random) or a level (1 to 5), each once, not "19".');
    expect(said).toContain('resign takes nothing after it, not "now please": type resign alone.');
    expect(said).toContain('page must be a page number, not "0x2".');
    expect(said).toContain('Nothing was forgotten.');
    expect(said).toMatch(/Done: I forgot \d+ learned subgoals?/);
    expect(said).toContain("My library: 0 learned subgoals");
    expect(said).toContain('Six or more in a row does not count: the game goes on.');
    expect(said).toMatch(/^ {2}threats {10}the realisations I recognise/m);
    expect(said).toContain('Unknown command "dance".');
    expect(said).not.toContain('never read');
    expect(said).toContain('Bye.');
    for (const name of ['rules.png', 'board.png', 'threats.png', 'library-1.png', 'stats.png']) {
      expect(said).toContain(`[image: ${join(out, name)}`);
      const png = await decode(readFileSync(join(out, name)));
      expect(png.width).toBeGreaterThan(100);
    }
  });

  it('plays input that arrived, and ended, before storage was open', async () => {
    const { dir, remove } = await tempDir('play-early-input');
    removals.push(remove);
    const { io, text } = capture();
    // Piped input read to its end while storage opens: readline drops lines nobody listens for.
    const input = new PassThrough();
    input.end('challenge 15 white 1\nboard\nquit\n');
    // As playInTerminal does: the interface, then at once the game, which opens storage first.
    const rl = createInterface({ input, terminal: false });
    try {
      const code = await runPlay({ io, lines: rl, env: { DATA_DIR: join(dir, 'data') }, outDir: join(dir, 'out') });
      expect(code).toBe(0);
    } finally {
      rl.close();
    }
    expect(text()).toContain('I open h8. The centre: the point with the most room for fives.');
    expect(text()).toMatch(/Bye\. Your game is kept/);
  }, 20_000);

  it('is what npm start runs without DISCORD_TOKEN, and it says so', async () => {
    const { dir, remove } = await tempDir('start-no-token');
    removals.push(remove);
    const run = spawnStart([], { DATA_DIR: join(dir, 'data'), DISCORD_TOKEN: '' }, dir, 'challenge 15 white 1\nboard\nquit\n');
    expect(await run.exited).toBe(0);
    expect(run.output().startsWith(NO_TOKEN_NOTICE)).toBe(true);
    expect(run.output()).toContain('I open h8. The centre: the point with the most room for fives.');
    expect(run.output()).toMatch(/\[image: out\/play\/board\.png — 15×15 board after move 1: white to play\]/);
    expect(existsSync(join(dir, 'out', 'play', 'board.png'))).toBe(true);
    expect(existsSync(join(dir, 'data', 'gomoku'))).toBe(true);
  });

  it('ends cleanly on Ctrl-D (end of input) and on Ctrl-C (SIGINT), keeping the game', async () => {
    for (const end of ['Ctrl-D', 'Ctrl-C'] as const) {
      const { dir, remove } = await tempDir('play-stop');
      removals.push(remove);
      const run = spawnStart([], { DATA_DIR: join(dir, 'data'), DISCORD_TOKEN: '' }, dir);
      run.child.stdin?.write('challenge 15 1\nh8\n');
      await run.waitFor(/board after move 2: black to play/, 20_000);
      const sent = performance.now();
      if (end === 'Ctrl-D') run.child.stdin?.end();
      else run.child.kill('SIGINT');
      expect(await run.exited, `${end}:\n${run.output()}`).toBe(0);
      expect(performance.now() - sent).toBeLessThan(3000);
      expect(run.output()).toMatch(/Bye\. Your game is kept/);
      const storage = await openBotStorage({ DATA_DIR: join(dir, 'data') }, silentLog);
      try {
        expect((await storage.guild(TERMINAL_SEAT.guildId).games.get(gameKey(TERMINAL_SEAT.channelId, TERMINAL_SEAT.userId)))?.moves).toHaveLength(2);
      } finally {
        await storage.close();
      }
    }
  });
});
