import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { FIXTURES } from './fixtures.ts';

export const BIN = join(FIXTURES, '..', '..', 'bin', 'gomoku.mjs');

/**
 * `gomoku brain` as a real child process, driven line by line over the Gomocup protocol:
 * `send` a command, `next` awaits its reply line. What the brain writes to standard error is
 * kept apart in `stderr()`, so a test can check that standard output holds only the protocol.
 */
export function spawnBrain(args: string[] = []) {
  const child = spawn(process.execPath, [BIN, 'brain', ...args], { stdio: ['pipe', 'pipe', 'pipe'] });
  const replies = createInterface({ input: child.stdout })[Symbol.asyncIterator]();
  let errText = '';
  child.stderr.setEncoding('utf8');
  child.stderr.on('data', (t: string) => void (errText += t));
  const exited = new Promise<number | null>((resolve) => child.on('close', (code) => resolve(code)));
  return {
    pid: child.pid!,
    send: (line: string) => void child.stdin.write(`${line}\n`),
    next: async () => (await replies.next()).value as string | undefined,
    end: () => child.stdin.end(),
    stderr: () => errText,
    exited,
  };
}
