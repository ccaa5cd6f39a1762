// The set-up script: the README's first command and CI must use the same one, and its --check
// must name what this machine has and lacks without installing anything.
import { spawnSync } from 'node:child_process';
import { chmodSync, existsSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';

const root = resolve(import.meta.dirname, '..');
const script = join(root, 'bin', 'setup.sh');
const canvasDeps = [
  'libcairo2-dev',
  'libpango1.0-dev',
  'libjpeg-dev',
  'libgif-dev',
  'librsvg2-dev',
  'libpixman-1-dev',
  'build-essential',
];

/** The command lines of the README's Quick start block, comments dropped. */
function quickStart(): string[] {
  const readme = readFileSync(join(root, 'README.md'), 'utf8');
  const block = /## Quick start\s+```sh\n([\s\S]*?)```/.exec(readme);
  expect(block, 'README has a Quick start sh block').not.toBeNull();
  return block![1]
    .split('\n')
    .map((line) => line.replace(/#.*/, '').trim())
    .filter((line) => line !== '');
}

/** .ci/run's commands, comments and blank lines dropped. */
function ciCommands(): string[] {
  return readFileSync(join(root, '.ci', 'run'), 'utf8')
    .split('\n')
    .map((line) => line.replace(/(^|\s)#.*/, '').trim())
    .filter((line) => line !== '');
}

const callsSetup = (line: string) => /^(npm run setup\b|(\.\/)?bin\/setup\.sh\b|bash bin\/setup\.sh\b)/.test(line);

function runSetup(args: string[], env: NodeJS.ProcessEnv = process.env) {
  const result = spawnSync('bash', [script, ...args], { cwd: root, env, encoding: 'utf8' });
  return { status: result.status, out: result.stdout + result.stderr };
}

const temps: string[] = [];
afterEach(() => {
  for (const dir of temps.splice(0)) rmSync(dir, { recursive: true, force: true });
});
function tempDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'gomoku-setup-'));
  temps.push(dir);
  return dir;
}

describe('one set-up script for the README and CI', () => {
  it('npm run setup is bin/setup.sh', () => {
    const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { scripts: Record<string, string> };
    expect(pkg.scripts.setup).toMatch(/^(bash )?bin\/setup\.sh$/);
    expect(existsSync(script)).toBe(true);
  });

  it("the README's first command line runs the set-up script, then starts", () => {
    const [run, test] = quickStart();
    expect(quickStart()).toHaveLength(2);
    expect(callsSetup(run), run).toBe(true);
    expect(run).toMatch(/&& npm start$/);
    expect(test).toBe('npm run check');
  });

  it('.ci/run calls the same script (no apt logic of its own), then the test command', () => {
    const commands = ciCommands();
    const setupAt = commands.findIndex(callsSetup);
    expect(setupAt, '.ci/run calls npm run setup or bin/setup.sh').toBeGreaterThanOrEqual(0);
    expect(commands[setupAt]).toMatch(/--redis\b/);
    expect(commands.at(-1)).toBe('npm run check');
    expect(commands.indexOf('npm run check')).toBeGreaterThan(setupAt);
    expect(commands.join('\n')).not.toMatch(/apt-get|dpkg|redis-server/);
  });
});

describe('bin/setup.sh --check', () => {
  const hasDpkg = spawnSync('sh', ['-c', 'command -v dpkg && command -v apt-get']).status === 0;

  it.runIf(hasDpkg)("names each of node-canvas's packages as present or missing, as dpkg says", () => {
    const { status, out } = runSetup(['--check']);
    expect(status, out).toBe(0);
    for (const pkg of canvasDeps) {
      const installed = spawnSync('dpkg', ['-s', pkg], { stdio: 'ignore' }).status === 0;
      expect(out).toContain(`setup: ${installed ? 'present' : 'missing'} ${pkg}\n`);
    }
    expect(out).toContain('would run npm ci --no-audit --no-fund');
  });

  it.runIf(hasDpkg)('reports a missing package and installs nothing', () => {
    // A dpkg that says libgif-dev is not installed, and an apt-get and npm that must not run.
    const bin = tempDir();
    const marker = join(bin, 'ran');
    writeFileSync(
      join(bin, 'dpkg'),
      `#!/bin/sh\n[ "$2" = libgif-dev ] && exit 1\nexec /usr/bin/dpkg "$@"\n`,
    );
    for (const name of ['apt-get', 'sudo', 'npm']) writeFileSync(join(bin, name), `#!/bin/sh\necho "$0 $*" >> ${marker}\n`);
    for (const name of ['dpkg', 'apt-get', 'sudo', 'npm']) chmodSync(join(bin, name), 0o755);
    const { status, out } = runSetup(['--check'], { ...process.env, PATH: `${bin}:${process.env.PATH}` });
    expect(status, out).toBe(0);
    expect(out).toContain('setup: missing libgif-dev\n');
    expect(out).toContain('setup: would install libgif-dev\n');
    expect(existsSync(marker), existsSync(marker) ? readFileSync(marker, 'utf8') : '').toBe(false);
  });

  it.runIf(hasDpkg)('without --check, updates apt once, installs what is missing, then runs npm ci', () => {
    // Stand-ins record what the script would run: a root id, a dpkg lacking two packages.
    const bin = tempDir();
    const log = join(bin, 'log');
    writeFileSync(
      join(bin, 'dpkg'),
      `#!/bin/sh\ncase "$2" in libgif-dev|librsvg2-dev) exit 1;; esac\nexec /usr/bin/dpkg "$@"\n`,
    );
    writeFileSync(join(bin, 'id'), '#!/bin/sh\necho 0\n');
    for (const name of ['apt-get', 'npm']) writeFileSync(join(bin, name), `#!/bin/sh\necho "${name} $*" >> ${log}\n`);
    for (const name of ['dpkg', 'id', 'apt-get', 'npm']) chmodSync(join(bin, name), 0o755);
    const { status, out } = runSetup([], { ...process.env, PATH: `${bin}:${process.env.PATH}` });
    expect(status, out).toBe(0);
    expect(readFileSync(log, 'utf8').trim().split('\n')).toEqual([
      // Waiting for apt's lock, which another install on a shared machine may hold.
      'apt-get -o DPkg::Lock::Timeout=300 update -qq',
      'apt-get -o DPkg::Lock::Timeout=300 install -y -qq libgif-dev librsvg2-dev',
      'npm ci --no-audit --no-fund',
    ]);
  });

  it('without apt-get, names the libraries and how to install them, and fails', () => {
    // A PATH holding only the few tools the script needs: no apt-get, dpkg or pkg-config.
    const bin = tempDir();
    for (const tool of ['dirname', 'cat', 'id']) {
      const found = spawnSync('sh', ['-c', `command -v ${tool}`], { encoding: 'utf8' }).stdout.trim();
      symlinkSync(found, join(bin, tool));
    }
    const result = spawnSync('/bin/bash', [script, '--check'], {
      cwd: root,
      env: { PATH: bin },
      encoding: 'utf8',
    });
    expect(result.status).not.toBe(0);
    expect(result.stderr).toContain('brew install pkg-config cairo pango libpng jpeg giflib librsvg');
    expect(result.stderr).toContain('cairo, pango, libjpeg, giflib, librsvg');
  });

  it('refuses an unknown option', () => {
    expect(runSetup(['--bogus']).status).toBe(2);
  });
});
