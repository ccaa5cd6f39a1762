import { main } from '../../src/cli/main.ts';
import { processIO, type CliIO } from '../../src/bot/io.ts';

/** Runs the gomoku CLI in-process and captures what it prints. */
export async function runCli(args: string[]): Promise<{ code: number; out: string; err: string }> {
  let out = '';
  let err = '';
  const io: CliIO = {
    out: (t) => void (out += t.endsWith('\n') ? t : `${t}\n`),
    err: (t) => void (err += t.endsWith('\n') ? t : `${t}\n`),
    // The real reader, with its bounds.
    readFile: (p, maxBytes) => processIO.readFile(p, maxBytes),
  };
  const code = await main(args, io);
  return { code, out, err };
}
