import { describe, expect, it } from 'vitest';
import { canonCommand } from '../src/cli/canon.ts';
import type { CliIO } from '../src/bot/io.ts';

/** Runs `gomoku canon` in-process (main.ts registers it separately). */
async function canon(args: string[]): Promise<{ code: number; out: string; err: string }> {
  let out = '';
  let err = '';
  const io: CliIO = {
    out: (t) => void (out += t.endsWith('\n') ? t : `${t}\n`),
    err: (t) => void (err += t.endsWith('\n') ? t : `${t}\n`),
    readFile: () => {
      throw new Error('canon reads no files');
    },
  };
  const code = await canonCommand.run(args, io);
  return { code, out, err };
}

describe('gomoku canon', () => {
  it('prints the canonical form', async () => {
    expect(await canon(['(2-1, 2) 3:4-3, 4'])).toEqual({ code: 0, out: '(1, 2-1) 4, 3-3:4\n', err: '' });
    const fig8 = "(1, 2, 3, 4-1, 3/4-1, 2/4-1, 2/3)6: 3', 2', 2', 2'-2', 1'-2', 1'-2', 1'";
    expect((await canon([fig8])).out).toBe("(1, 2, 3, 4-1, 3/4-1, 2/4-1, 2/3) 6:3', 2', 2', 2'-2', 1'-2', 1'-2', 1'\n");
  });

  it('takes a description given unquoted, in several arguments', async () => {
    expect((await canon(['(1,', '2-1,', '2)', "4:3',", "2'-2',", "3'"])).out).toBe("(1, 2-1, 2) 4:3', 2'-4:2', 3'\n");
  });

  it('shows the input with a caret under the error, and exits 1', async () => {
    const r = await canon(['(1, 2-1) 4, 9-3:4']);
    expect(r.code).toBe(1);
    expect(r.out).toBe('');
    expect(r.err.split('\n')).toEqual([
      '(1, 2-1) 4, 9-3:4',
      '            ^',
      'gomoku canon: pattern 9 is out of range: n runs from 0 to 5 (pattern-out-of-range)',
      '',
    ]);
  });

  it('puts the caret past the end when the input stops too early', async () => {
    const r = await canon(['(1, 2-1)']);
    expect(r.code).toBe(1);
    expect(r.err.split('\n').slice(0, 2)).toEqual(['(1, 2-1)', '        ^']);
  });

  it('is a usage error without a description or with an option', async () => {
    expect((await canon([])).code).toBe(2);
    expect((await canon(['--fast', '(1) 1:5'])).code).toBe(2);
    expect(canonCommand.name).toBe('canon');
    expect(canonCommand.help).toContain('gomoku canon');
  });
});
