// The board font comes from assets/fonts, registered before anything is drawn: a process whose
// fontconfig knows no fonts at all (the system's rendering settings, none of its font folders)
// draws the same bytes as this one, which sees the system's DejaVu — while plain node-canvas
// text, which never loads assets/fonts, comes out different there, so the comparison can fail.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { BOARD_FONTS, FONTS_DIR } from '../../src/render/index.ts';
import { fontSample } from '../support/fontSample.ts';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const dir = mkdtempSync(join(tmpdir(), 'gomoku-fonts-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** A fontconfig with the system's settings (hinting, antialiasing) and no font folders. */
function noFonts(): string {
  const file = join(dir, 'fonts.conf');
  writeFileSync(
    file,
    `<?xml version="1.0"?>\n<!DOCTYPE fontconfig SYSTEM "fonts.dtd">\n<fontconfig><include ignore_missing="yes">/etc/fonts/conf.d</include><cachedir>${join(dir, 'cache')}</cachedir></fontconfig>\n`,
  );
  return file;
}

function drawInChild(what: 'board' | 'text', fontconfig?: string): Buffer {
  const env = { ...process.env, ...(fontconfig !== undefined ? { FONTCONFIG_FILE: fontconfig } : {}) };
  const r = spawnSync(process.execPath, ['--import', 'tsx', join(ROOT, 'test/support/drawChild.ts'), what], { cwd: ROOT, env, encoding: 'utf8', maxBuffer: 16 << 20 });
  if (r.status !== 0) throw new Error(`child failed: ${r.stderr}`);
  return Buffer.from(r.stdout, 'base64');
}

describe('the board font', () => {
  it('is DejaVu Sans, Sans Bold and Sans Mono, files in assets/fonts', () => {
    expect(BOARD_FONTS.map((f) => `${f.file} ${f.family} ${f.weight}`)).toEqual(['DejaVuSans.ttf DejaVu Sans normal', 'DejaVuSans-Bold.ttf DejaVu Sans bold', 'DejaVuSansMono.ttf DejaVu Sans Mono normal']);
    for (const f of BOARD_FONTS) expect(existsSync(join(FONTS_DIR, f.file)), f.file).toBe(true);
  });

  it('draws the same glyphs on a machine with no fonts', () => {
    const conf = noFonts();
    // The control: without assets/fonts, text comes out otherwise where fontconfig has no fonts.
    expect(drawInChild('text', conf).equals(drawInChild('text'))).toBe(false);
    const here = fontSample();
    expect(drawInChild('board').equals(here)).toBe(true);
    expect(drawInChild('board', conf).equals(here)).toBe(true);
  }, 60_000);
});
