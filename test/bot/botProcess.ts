// Runs the real entry point, `node bin/start.mjs` (what `npm start` and `npm run deploy` run),
// as a child process with an environment the test gives it — nothing inherited but PATH and
// HOME, and a working folder without a .env — and watches what it prints.
import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const START = fileURLToPath(new URL('../../bin/start.mjs', import.meta.url));
const ROOT = fileURLToPath(new URL('../..', import.meta.url));

export interface BotProcess {
  readonly child: ChildProcess;
  /** Everything printed so far, stdout and stderr interleaved. */
  output(): string;
  /** Resolves when the output matches; rejects with the output on a timeout or an early exit. */
  waitFor(pattern: RegExp, timeoutMs?: number): Promise<void>;
  /** The exit code (null when killed by a signal). */
  readonly exited: Promise<number | null>;
  /** Sends `signal` and waits for the exit. */
  stop(signal?: NodeJS.Signals): Promise<number | null>;
}

/** `nodeArgs` go to node before the script: the load benchmark profiles with `--cpu-prof`, which NODE_OPTIONS refuses. */
export function spawnStart(args: readonly string[], env: Record<string, string>, cwd: string, stdin?: string, nodeArgs: readonly string[] = []): BotProcess {
  const child = spawn(process.execPath, [...nodeArgs, START, ...args], {
    cwd,
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? cwd, ...env },
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  return watch(child, stdin);
}

/**
 * `npm start` itself, in the project's folder, as the leader of a process group of its own
 * (npm, the shell it runs the script in, node): what a process manager starts, and what
 * `kill -TERM -<pgid>` — `signalGroup` — reaches all of.
 */
export function spawnNpmStart(env: Record<string, string>): BotProcess & { signalGroup(signal: NodeJS.Signals): void } {
  const child = spawn('npm', ['start', '--silent'], {
    cwd: ROOT,
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? ROOT, ...env },
    stdio: ['pipe', 'pipe', 'pipe'],
    detached: true,
  });
  const watched = watch(child);
  return { ...watched, signalGroup: (signal) => process.kill(-child.pid!, signal) };
}

function watch(child: ChildProcess, stdin?: string): BotProcess {
  let text = '';
  const listeners = new Set<() => void>();
  const onData = (chunk: Buffer) => {
    text += chunk.toString('utf8');
    for (const l of listeners) l();
  };
  child.stdout?.on('data', onData);
  child.stderr?.on('data', onData);
  if (stdin !== undefined) child.stdin?.end(stdin);
  let done = false;
  // 'close', not 'exit': a process can exit before its last output has been read, and a busy
  // machine then shows a test an output cut short.
  const exited = new Promise<number | null>((resolve) =>
    child.once('close', (code) => {
      done = true;
      for (const l of listeners) l();
      resolve(code);
    }),
  );
  return {
    child,
    output: () => text,
    exited,
    waitFor: (pattern, timeoutMs = 15_000) =>
      new Promise<void>((resolve, reject) => {
        const check = () => {
          if (pattern.test(text)) finish(undefined);
          else if (done) finish(new Error(`the process exited before printing ${pattern}:\n${text}`));
        };
        const timer = setTimeout(() => finish(new Error(`no ${pattern} within ${timeoutMs} ms:\n${text}`)), timeoutMs);
        const finish = (e: Error | undefined) => {
          clearTimeout(timer);
          listeners.delete(check);
          if (e === undefined) resolve();
          else reject(e);
        };
        listeners.add(check);
        check();
      }),
    stop: async (signal = 'SIGTERM') => {
      if (!done) child.kill(signal);
      return exited;
    },
  };
}
