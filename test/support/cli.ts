import { readFileSync } from 'node:fs';
import { main } from '../../src/cli/main.ts';
import type { CliIO } from '../../src/cli/command.ts';

/** Runs the gomoku CLI in-process and captures what it prints. */
export async function runCli(args: string[]): Promise<{ code: number; out: string; err: string }> {
  let out = '';
  let err = '';
  const io: CliIO = {
    out: (t) => void (out += t.endsWith('\n') ? t : `${t}\n`),
    err: (t) => void (err += t.endsWith('\n') ? t : `${t}\n`),
    readFile: (p) => readFileSync(p, 'utf8'),
  };
  const code = await main(args, io);
  return { code, out, err };
}
