// The layout stays true (issue 29). Lint keeps each import going down the layers of src/
// (eslint.config.js); what one import cannot show is a circle, so this reads the whole import
// graph of src/, commands/ and bin/ — type imports and dynamic imports too, as madge would — and
// finds its strongly connected components. It also checks that every folder of src/ says what
// it is and what it may import.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

const root = resolve(import.meta.dirname, '..');

/** Every .ts (or, for bin/, .mjs) file under `dir`, relative to the repository. */
function sources(dir: string, ending = '.ts'): string[] {
  return readdirSync(join(root, dir), { withFileTypes: true, recursive: true })
    .filter((e) => e.isFile() && e.name.endsWith(ending))
    .map((e) => relative(root, join(e.parentPath, e.name)))
    .sort();
}

/** `import … from './x.ts'`, `export … from`, `import './x.ts'` and `import('./x.ts')`; packages are not followed. */
const IMPORT = /(?:^|\n)\s*(?:import|export)\b[^'";]*?\bfrom\s*'(\.[^']*)'|(?:^|\n)\s*import\s*'(\.[^']*)'|\bimport\(\s*'(\.[^']*)'\s*\)/g;

/** Each file's relative imports, resolved to paths relative to the repository. */
function importGraph(files: readonly string[]): Map<string, string[]> {
  const graph = new Map<string, string[]>();
  for (const file of files) {
    const text = readFileSync(join(root, file), 'utf8');
    const targets = [...text.matchAll(IMPORT)].map((m) => relative(root, resolve(root, dirname(file), m[1] ?? m[2] ?? m[3])));
    graph.set(file, [...new Set(targets)]);
  }
  return graph;
}

/** The circles of a graph: its strongly connected components of more than one file, or of a file that imports itself (Tarjan). */
function circles(graph: ReadonlyMap<string, readonly string[]>): string[][] {
  let next = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const found: string[][] = [];
  const visit = (v: string): void => {
    index.set(v, next);
    low.set(v, next);
    next++;
    stack.push(v);
    onStack.add(v);
    for (const w of graph.get(v) ?? []) {
      if (!graph.has(w)) continue;
      if (!index.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (onStack.has(w)) {
        low.set(v, Math.min(low.get(v)!, index.get(w)!));
      }
    }
    if (low.get(v) !== index.get(v)) return;
    const component: string[] = [];
    let w: string;
    do {
      w = stack.pop()!;
      onStack.delete(w);
      component.push(w);
    } while (w !== v);
    if (component.length > 1 || graph.get(v)!.includes(v)) found.push(component.sort());
  };
  for (const v of graph.keys()) if (!index.has(v)) visit(v);
  return found;
}

describe('the import graph', () => {
  // bin/ too: its scripts import the entry points by path, and nothing else checks those paths.
  const files = [...sources('src'), ...sources('commands'), ...sources('bin', '.mjs')];
  const graph = importGraph(files);

  it('is read whole: every relative import names a file that exists', () => {
    expect(files.length).toBeGreaterThan(150);
    const missing = [...graph].flatMap(([file, targets]) => targets.filter((t) => !existsSync(join(root, t))).map((t) => `${file} -> ${t}`));
    expect(missing).toEqual([]);
    // The reader sees type-only and dynamic imports: a circle of types is still a circle to a reader.
    expect(graph.get('src/cli/bench.ts')).toContain('bench/run.ts');
    expect(graph.get('src/bot/gameViews.ts')).toContain('src/bot/ratings.ts');
  });

  it('has no circles', () => {
    expect(circles(graph)).toEqual([]);
  });

  it('would show a circle, and only the files on it', () => {
    const loop = new Map([
      ['a.ts', ['b.ts']],
      ['b.ts', ['c.ts', 'd.ts']],
      ['c.ts', ['a.ts']],
      ['d.ts', []],
      ['e.ts', ['e.ts']],
    ]);
    expect(circles(loop)).toEqual([['a.ts', 'b.ts', 'c.ts'], ['e.ts']]);
    // And in the real graph: one import of the service back from the community service makes one.
    const bent = new Map(graph);
    bent.set('src/bot/versus.ts', [...graph.get('src/bot/versus.ts')!, 'src/bot/service.ts']);
    expect(circles(bent)).toEqual([['src/bot/service.ts', 'src/bot/versus.ts']]);
  });
});

describe('the folders of src/', () => {
  it('each open with a README.md that says what the folder may import', () => {
    const folders = readdirSync(join(root, 'src'), { withFileTypes: true }).filter((e) => e.isDirectory()).map((e) => e.name);
    expect(folders.sort()).toEqual(['bot', 'cli', 'discord', 'gomocup', 'learning', 'notation', 'play', 'recognition', 'render', 'rules', 'storage']);
    for (const folder of folders) {
      const readme = join(root, 'src', folder, 'README.md');
      expect(existsSync(readme), `src/${folder}/README.md`).toBe(true);
      expect(readFileSync(readme, 'utf8'), `src/${folder}/README.md`).toMatch(/\*\*May import:\*\*/);
    }
  });

  it('hold no file directly under src/', () => {
    expect(readdirSync(join(root, 'src')).filter((name) => name.endsWith('.ts'))).toEqual([]);
  });
});
