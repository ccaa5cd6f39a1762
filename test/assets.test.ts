// assets/: what is there is what the project makes — the openings files are exactly what
// generateOpenings gives for each set the match tools use, `gomoku match` plays from one, and
// the avatar is what the renderer draws (bench/writeOpenings.ts and src/render/avatarImage.ts
// write them again). The font and the starter library have their own tests
// (test/render/fonts.test.ts, test/bot/starter.test.ts).
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { OPENING_SETS, openingsFile } from '../bench/openings.ts';
import { parseGameRecord } from '../src/rules/gameRecord.ts';
import { generateOpenings, makeOpenings, parseOpenings } from '../src/gomocup/match.ts';
import { makePoint } from '../src/rules/point.ts';
import { renderAvatar } from '../src/render/avatar.ts';
import { expectOk } from '../src/rules/result.ts';
import { decode } from './render/png.ts';
import { runCli } from './support/cli.ts';

const ASSETS = fileURLToPath(new URL('../assets/', import.meta.url));
const out = mkdtempSync(join(tmpdir(), 'gomoku-assets-'));
afterAll(() => rmSync(out, { recursive: true, force: true }));

describe('assets/openings', () => {
  it('holds one file per set the match tools use, each exactly what generateOpenings gives', () => {
    expect(readdirSync(join(ASSETS, 'openings')).sort()).toEqual(OPENING_SETS.map((s) => `${s.name}.txt`).sort());
    for (const set of OPENING_SETS) {
      const text = readFileSync(join(ASSETS, 'openings', `${set.name}.txt`), 'utf8');
      expect(text, set.name).toBe(openingsFile(set));
      const generated = generateOpenings(set.seed, set.count, set.size);
      expect(generated.length, set.name).toBe(set.count);
      expect(expectOk(parseOpenings(text, set.size)), set.name).toEqual(generated);
    }
  });

  it('a shorter run of one seed plays the first lines of its file', () => {
    const curve = OPENING_SETS.find((s) => s.name === 'curve-19')!;
    expect(generateOpenings(curve.seed, 40, curve.size)).toEqual(generateOpenings(curve.seed, curve.count, curve.size).slice(0, 40));
  });

  it('gomoku match plays from a file of it', async () => {
    const file = join(ASSETS, 'openings', 'matches-15.txt');
    const dir = join(out, 'match');
    const r = await runCli(['match', '--black', 'builtin:gomokuai', '--white', 'builtin:gomokuai', '--games', '2', '--size', '15', '--openings', file, '--out', dir]);
    expect(r.err).toBe('');
    expect(r.code).toBe(0);
    const openings = expectOk(parseOpenings(readFileSync(file, 'utf8'), 15));
    expect(readFileSync(join(dir, 'openings.txt'), 'utf8')).toBe(makeOpenings(openings, 15));
    const first = expectOk(parseGameRecord(readFileSync(join(dir, 'game-001.txt'), 'utf8')));
    expect(first.moves.slice(0, openings[0].length)).toEqual(openings[0]);
    expect(first.comments).toContain(`opening: ${openings[0].map((p) => makePoint(15, p)).join(' ')} (${openings[0].length} stones)`);
  });
});

describe('assets/avatar.png', () => {
  it('is the avatar the renderer draws, 512 pixels square', async () => {
    const committed = readFileSync(join(ASSETS, 'avatar.png'));
    expect(committed.equals(renderAvatar())).toBe(true);
    const image = await decode(committed);
    expect([image.width, image.height]).toEqual([512, 512]);
  });
});
