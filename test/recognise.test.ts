import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { Board } from '../src/rules/board.ts';
import { boardFromPicture, parseBoardText, type BoardPicture } from '../src/rules/boardText.ts';
import { makeControlStream, parseControlStream } from '../src/recognition/controlStream.ts';
import { compileDescription } from '../src/recognition/compile.ts';
import type { Game } from '../src/rules/game.ts';
import { parseDescription } from '../src/notation/descriptionNotation.ts';
import { entryGate, GateReads, gateShut } from '../src/recognition/entryGate.ts';
import { runStream, StreamMachine } from '../src/recognition/interpret.ts';
import { CoverMap, ScanScratch } from '../src/recognition/readLog.ts';
import { Library } from '../src/learning/library.ts';
import { makePoint, parsePoint } from '../src/rules/point.ts';
import { ProfileTable } from '../src/recognition/profile.ts';
import { seededRandom, type Random } from '../src/rules/random.ts';
import { Recogniser, type RecogniseStats } from '../src/recognition/recognise.ts';
import { compileSubgoal, type Subgoal } from '../src/recognition/subgoal.ts';
import { expectOk } from '../src/rules/result.ts';
import { SYMMETRIES, swapColours, transformPicture, transformPoint, translatePicture, translatePoint } from '../src/rules/symmetry.ts';
import { BLACK, EMPTY, WHITE, type Cell } from '../src/rules/types.ts';
import { fixture } from './support/fixtures.ts';
import { randomDescription } from './support/randomDescription.ts';
import { benchLibrary } from '../bench/libraries.ts';
import { generateGame } from '../bench/positions.ts';
import { leastNodes, library, mappedKeys, recogniseText, subgoal } from './support/recognition.ts';
import { referenceRealisations } from './support/referenceMatcher.ts';

const PAPER = {
  fig1: '(1) 1:5',
  fig2: "(1) 2:4'",
  fig4: '(1, 1) 2:4, 4',
  fig3: "(1, 1) 3:3', 3'",
  fig6: '(1, 2-1) 4, 3-3:4',
  fig5: "(1, 2-1, 2) 4:3', 2'-4:2', 3'",
  fig8: "(1, 2, 3, 4-1, 3/4-1, 2/4-1, 2/3)6: 3', 2', 2', 2'-2', 1'-2', 1'-2', 1'",
};

const board = (name: string): BoardPicture => expectOk(parseBoardText(fixture(`recognition/${name}.txt`)));

describe('recognition of the paper\'s examples on hand-built boards', () => {
  // Each expectation was worked out by hand from the board (see the comment in each fixture).
  const cases: [string, string, 'black' | 'white', string[]][] = [
    ['fig1-four', PAPER.fig1, 'black', ['(1) 1:5 a5 | ', '(1) 1:5 f5 | ']],
    // c2-f2 with a white stone on a2: b2 would make six, so only g2 completes a five.
    ['fig1-four', PAPER.fig1, 'white', ['(1) 1:5 g2 | ']],
    ['fig2-open-three-diagonal', PAPER.fig2, 'black', ["(1) 2:4' b2 | a1 f6", "(1) 2:4' f6 | b2 g7"]],
    ['fig4-double-four', PAPER.fig4, 'black', ['(1, 1) 2:4, 4 e5 | f5 e6']],
    ['fig3-double-open-three', PAPER.fig3, 'black', ["(1, 1) 3:3', 3' d5 | d1 d2 a5 e5 f5 d6"]],
    ['fig6-four-then-double-four', PAPER.fig6, 'black', ['(1, 2-1) 4, 3-3:4 a5 c5 | b5 f5 a6']],
    [
      'fig5-twin-threes',
      PAPER.fig5,
      'black',
      [
        // The realisation the fixture was built for: nodes c6 and f6.
        "(1, 2-1, 2) 4:3', 2'-4:2', 3' c6 f6 | c4 f4 c5 f5 b6 e6 g6 c9 f9",
        // The same stones make three more: nodes f5 and d7 (sharing the falling diagonal
        // through e6), and d7 and d8 (sharing column d) with three choices of patterns. The
        // reference matcher finds the same five (checked below).
        "(1, 2-1, 2) 4:3', 2'-4:2', 3' f5 d7 | f4 g4 e6 f6 b7 e7 g7 b9 f9",
        "(1, 2-1, 2) 4:3', 2'-4:2', 3' d7 d8 | d4 d5 b7 e7 g7 b8 e8 g8 d9",
        "(1, 2-1, 2) 4:3', 2'-4:2', 3' d7 d8 | d4 d5 b7 e7 g7 b8 e8 g8 d9 d10",
        "(1, 2-1, 2) 4:3', 2'-4:2', 3' d7 d8 | d5 b7 e7 g7 b8 e8 g8 d9 d10",
      ],
    ],
  ];
  it.each(cases)('%s: %s for %s', (name, text, colour, expected) => {
    const pic = board(name);
    const got = recogniseText(pic, library([text]), colour);
    expect(got.sort()).toEqual(expected.slice().sort());
    // And the reference matcher agrees.
    const s = subgoal(text);
    const ref = referenceRealisations(pic, s.description, colour === 'black' ? BLACK : WHITE, s.automorphisms);
    expect(ref.size).toBe(expected.length);
  });

  it('finds nothing for the other colour or where a stone spoils the pattern', () => {
    expect(recogniseText(board('fig2-open-three-diagonal'), library([PAPER.fig2]), 'white')).toEqual([]);
    // Black's row 8 (a8 b8 o c8 d8 e8) is cut by white's c8: no black five threat there.
    expect(recogniseText(board('fig1-four'), library([PAPER.fig1]), 'black').some((s) => s.includes('8'))).toBe(false);
  });

  it('Fig. 8: four nodes, node 1 at e5 with d6 e6 f6 on row 6, as the reference finds them', () => {
    const pic = board('fig8-four-nodes');
    const s = subgoal(PAPER.fig8);
    const got = recogniseText(pic, [s], 'black').filter((x) => x.includes(' e5 d6 e6 f6 |'));
    // Row 6 offers three empty windows round d6-f6; each node takes two, and the choices give
    // three different sets of implicit nodes.
    expect(got).toHaveLength(3);
    const e5 = expectOk(parsePoint(9, 'e5'));
    const ref = referenceRealisations(pic, s.description, BLACK, s.automorphisms, [e5]);
    const mine = new Recogniser(boardFromPicture(pic), [s]).realisations('black').filter((r) => r.nodes[0] === e5);
    expect(new Set(mine.map((r) => `${r.nodes.join(',')}|${r.implicit.join(',')}`))).toEqual(ref);
  });
});

describe('control streams', () => {
  it('compile the paper\'s examples in the shape of Fig. 9: A, then B/C per line, D, E per line', () => {
    const s = expectOk(compileDescription(expectOk(parseDescription(PAPER.fig8))));
    expect(s.elements.map((e) => e.op).join('')).toBe('ABCBCBCDBEEEEE');
    const fig6 = subgoal(PAPER.fig6).stream;
    expect(fig6.elements.map((e) => e.op).join('')).toBe('ABCBEE');
  });

  it('print and parse back to the same stream', () => {
    const rnd = seededRandom(21);
    const texts = [...Object.values(PAPER)];
    for (let i = 0; i < 80; i++) {
      const d = randomDescription(rnd, { maxNodes: 5 });
      const c = compileDescription(d);
      if (c.ok) texts.push(makeControlStream(c.value));
    }
    for (const t of Object.values(PAPER)) {
      const s = subgoal(t).stream;
      expect(expectOk(parseControlStream(makeControlStream(s)))).toEqual(s);
    }
    for (const t of texts.slice(Object.keys(PAPER).length)) expect(makeControlStream(expectOk(parseControlStream(t)))).toBe(t);
  });

  it('print one element a row, what each checks after a semicolon in one column', () => {
    for (const t of [PAPER.fig3, PAPER.fig6, PAPER.fig8]) {
      const rows = makeControlStream(subgoal(t).stream).split('\n').filter((r) => /^\s*\d+ {2}[A-E] /.test(r));
      expect(rows.length).toBe(subgoal(t).stream.elements.length);
      expect(new Set(rows.map((r) => r.indexOf(';'))).size, t).toBe(1);
    }
  });

  it('rejects a malformed stream text with the line it stopped at', () => {
    const good = makeControlStream(subgoal(PAPER.fig6).stream).split('\n');
    const bad = good.slice();
    bad[5] = '  2  B  node 9  L1';
    const r = parseControlStream(bad.join('\n'));
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.error.line).toBe(6);
    expect(parseControlStream('hello').ok).toBe(false);
  });

  it('refuse a disconnected description', () => {
    const d = { nodes: [{ lines: [{ others: [], spec: { n: 4, dashed: false } }] }, { lines: [{ others: [], spec: { n: 4, dashed: false } }] }] };
    const r = compileDescription(d);
    expect(r.ok || r.error.code).toBe('disconnected');
  });

  it('stop at the step cap', () => {
    const pic = board('fig8-four-nodes');
    const b = boardFromPicture(pic);
    const s = subgoal(PAPER.fig8);
    const stats = runStream(s.stream, b, new ProfileTable(b, BLACK), expectOk(parsePoint(9, 'e5')), () => {}, 5);
    expect(stats.capped).toBe(true);
  });

  it('refuse to start a run while another reports, and run cleanly after', () => {
    // Every machine shares one working state, so a run inside another's report would corrupt it.
    const b = boardFromPicture(board('fig8-four-nodes'));
    const s = subgoal(PAPER.fig8);
    const table = new ProfileTable(b, BLACK);
    const e5 = expectOk(parsePoint(9, 'e5'));
    const all = () => {
      const found: string[] = [];
      runStream(s.stream, b, table, e5, (r) => found.push(JSON.stringify(r)));
      return found;
    };
    const before = all();
    expect(before.length).toBeGreaterThan(0);
    const nested = () => runStream(s.stream, b, table, e5, () => runStream(subgoal(PAPER.fig2).stream, b, table, e5, () => {}));
    expect(nested).toThrow('runs must not nest');
    expect(all()).toEqual(before);
  });

  it('keep their tables whichever part of the shared buffer they are made in', () => {
    // Machines' tables are copies in a shared buffer of a megabyte at a time (streamTables.ts,
    // packed); three thousand machines of Fig. 8's stream (about 500 bytes each) fill more
    // than one, so some of them are made at the end of one buffer and some in the next.
    // Every one finds what the first does.
    const b = boardFromPicture(board('fig8-four-nodes'));
    const s = subgoal(PAPER.fig8);
    const table = new ProfileTable(b, BLACK);
    const e5 = expectOk(parsePoint(9, 'e5'));
    const findings = (m: StreamMachine): string[] => {
      const found: string[] = [];
      m.run(table, e5, (r) => found.push(JSON.stringify(r)));
      return found;
    };
    const machines = Array.from({ length: 3000 }, () => new StreamMachine(s.stream, new CoverMap(b.points)));
    // The buffer each machine's tables went into (a private field, read only to find where one ends).
    const buffers = machines.map((m) => (m as unknown as { elOp: Int8Array }).elOp.buffer);
    const next = buffers.findIndex((x, i) => i > 0 && x !== buffers[i - 1]);
    expect(next).toBeGreaterThan(0);
    const first = findings(machines[0]);
    expect(first.length).toBeGreaterThan(0);
    // The last machine in one buffer, the first in the next, and the last made.
    for (const at of [next - 1, next, machines.length - 1]) expect(findings(machines[at])).toEqual(first);
  });
});

function randomPicture(rnd: Random, size: number, density: number): BoardPicture {
  const cells: Cell[] = Array.from({ length: size * size }, () => (rnd.next() < density ? (rnd.next() < 0.55 ? BLACK : WHITE) : EMPTY));
  return { size, cells };
}

/** Paper descriptions of up to three nodes, plus random connected ones with usable specs. */
function propertyLibrary(rnd: Random): Subgoal[] {
  const lib = library([PAPER.fig1, PAPER.fig2, PAPER.fig4, PAPER.fig3, PAPER.fig6, PAPER.fig5, "(1) 3'", "(1, 1) 3, 2'", '(2-1) 3-3', "(2-1) 2'-3'", "(1, 2-1) 3', 2-2'"]);
  const seen = new Set(lib.map((s) => s.text));
  while (lib.length < 20) {
    const d = randomDescription(rnd, { maxNodes: 3, commentChance: 0.3 });
    const usable = { nodes: d.nodes.map((n) => ({ ...n, lines: n.lines.map((l) => ({ ...l, spec: { ...l.spec, n: 2 + (l.spec.n % 3) } })) })) };
    const s = compileSubgoal(usable);
    if (s.ok && !seen.has(s.value.text)) {
      seen.add(s.value.text);
      lib.push(s.value);
    }
  }
  return lib;
}

describe('the interpreter against the reference matcher (seeded random boards)', () => {
  it('finds exactly the realisations the slow matcher finds', () => {
    const rnd = seededRandom(1968);
    const lib = propertyLibrary(rnd);
    let compared = 0;
    for (let trial = 0; trial < 14; trial++) {
      const pic = randomPicture(rnd, rnd.pick([7, 8, 9]), 0.15 + rnd.next() * 0.35);
      const r = new Recogniser(boardFromPicture(pic), lib);
      for (const s of lib) {
        for (const [stone, colour] of [[BLACK, 'black'], [WHITE, 'white']] as const) {
          const mine = new Set(r.realisations(colour).filter((x) => x.subgoal === s).map((x) => `${x.nodes.join(',')}|${x.implicit.join(',')}`));
          const ref = referenceRealisations(pic, s.description, stone, s.automorphisms);
          expect(mine, `trial ${trial} ${s.text} ${colour}`).toEqual(ref);
          compared += ref.size;
        }
      }
      expect(r.stats.capped).toBe(0);
    }
    // The boards must actually hold realisations for the comparison to mean something.
    expect(compared).toBeGreaterThan(300);
  });
});

describe('symmetric subgoals', () => {
  // Generated subgoals (bench/libraries.ts) with a node permutation mapping the description
  // onto itself: some move the entry node, some fix it and swap two others.
  const SYMMETRIC = [
    '(1, 2-1, 3-2, 3) 4, 3-3:3, 3-3, 4',
    '(1, 2-1, 3-2, 4-3, 4) 4, 3-4:3, 3-4:3, 3-3, 4',
    '(1, 2/3-1/3, 2-1/2, 4-3, 4) 4:4, 2-4:2, 4-2, 3-3, 4',
    "(1, 2/3-1/3, 2-1/2, 4-3, 4) 3', 1'-1', 3'-5:1', 2'-2', 3'",
    "(1, 2/3-1/3, 2-1/2, 3) 4, 2-2, 4-4:2, 3'",
    "(1, 2-1, 3-2, 3) 5:4, 2'-2', 2'-5:2', 4",
    "(1, 2/3-1/3, 2-1/2, 3) 4, 2-4:2, 3'-4:2, 3'",
    "(1, 2-1, 2) 4:3', 2'-4:2', 3'",
  ];

  it('are found once per realisation, as every labelling found and merged under the least one', () => {
    const rnd = seededRandom(2211);
    const lib = library(SYMMETRIC);
    for (const s of lib) expect(s.automorphisms.length, s.text).toBeGreaterThan(1);
    let compared = 0;
    for (let trial = 0; trial < 6; trial++) {
      const pic = randomPicture(rnd, 13, 0.2 + rnd.next() * 0.2);
      const board = boardFromPicture(pic);
      const r = new Recogniser(board, lib);
      for (const s of lib) {
        for (const [stone, colour] of [[BLACK, 'black'], [WHITE, 'white']] as const) {
          const mine = new Set(r.realisations(colour).filter((x) => x.subgoal === s).map((x) => `${x.nodes.join(',')}|${x.implicit.join(',')}`));
          // Every labelling, from a machine that breaks no symmetry, merged by hand.
          const all = new Set<string>();
          const profiles = new ProfileTable(board, stone);
          for (let p = 0; p < board.points; p++) {
            if (!board.isEmpty(p)) continue;
            runStream(s.stream, board, profiles, p, (raw) => all.add(`${leastNodes(raw.nodes, s.automorphisms).join(',')}|${raw.implicit.join(',')}`));
          }
          expect(mine, `trial ${trial} ${s.text} ${colour}`).toEqual(all);
          compared += all.size;
        }
      }
    }
    expect(compared).toBeGreaterThan(100);
  });
});

describe('the entry gate', () => {
  // A stream that begins A, B, C is not run from a point where its first C can have no
  // candidate along any direction its B could take (EntryGate): the run would find nothing.
  it('is shut only where a run of the stream finds nothing (seeded random boards, generated subgoals)', () => {
    const rnd = seededRandom(4242);
    const lib = benchLibrary(300);
    const gated = lib.filter((s) => entryGate(s.stream) !== undefined);
    expect(gated.length).toBeGreaterThan(250);
    let shut = 0;
    let open = 0;
    let openAndFound = 0;
    const reads = new GateReads();
    for (let trial = 0; trial < 4; trial++) {
      const board = boardFromPicture(randomPicture(rnd, 13, 0.25 + rnd.next() * 0.2));
      const scratch = new ScanScratch(board.points);
      for (const stone of [BLACK, WHITE] as const) {
        const profiles = new ProfileTable(board, stone);
        for (const s of gated) {
          const gate = entryGate(s.stream)!;
          const machine = new StreamMachine(s.stream);
          for (let p = 0; p < board.points; p++) {
            if (!board.isEmpty(p)) continue;
            let found = 0;
            machine.scan(profiles, p, scratch, () => found++);
            scratch.clearReads();
            if (gateShut(profiles, p, gate, reads)) {
              expect(found, `${s.text} at ${p}`).toBe(0);
              shut++;
            } else {
              open++;
              if (found > 0) openAndFound++;
            }
          }
        }
      }
    }
    // Both ways often enough for the check to mean something.
    expect(shut).toBeGreaterThan(10_000);
    expect(open).toBeGreaterThan(10_000);
    expect(openAndFound).toBeGreaterThan(50);
  });

  it('spares runs in a whole-board scan and after moves, which still find what every run from every point finds', () => {
    const lib = benchLibrary(120);
    const game = generateGame(1968, 60);
    const board = game.board.clone();
    const live = new Recogniser(board, lib);
    expect(live.stats.gated).toBeGreaterThan(50);
    const ungated = (colour: 'black' | 'white'): string[] => {
      const profiles = new ProfileTable(board, colour === 'black' ? BLACK : WHITE);
      const keys = new Set<string>();
      const scratch = new ScanScratch(board.points);
      for (const s of lib) {
        const machine = new StreamMachine(s.stream);
        for (let p = 0; p < board.points; p++) {
          if (!board.isEmpty(p)) continue;
          machine.scan(profiles, p, scratch, (m) => {
            const raw = m.report();
            keys.add(`${s.text}|${leastNodes(raw.nodes, s.automorphisms).join(',')}|${raw.implicit.join(',')}`);
          });
          scratch.clearReads();
        }
      }
      return [...keys].sort();
    };
    const mine = (colour: 'black' | 'white'): string[] => live.realisations(colour).map((x) => `${x.subgoal.text}|${x.nodes.join(',')}|${x.implicit.join(',')}`).sort();
    const rnd = seededRandom(31);
    for (let step = 0; step < 4; step++) {
      if (step > 0) {
        const before = live.stats.gated;
        live.play(rnd.pick(emptiesNearCentre(board, 6)), board.stoneCount % 2 === 0 ? BLACK : WHITE);
        expect(live.stats.gated, `step ${step}`).toBeGreaterThanOrEqual(before);
      }
      for (const colour of ['black', 'white'] as const) expect(mine(colour), `step ${step} ${colour}`).toEqual(ungated(colour));
    }
  });
  it('opens where a move gives its C a candidate, and stays exact through a long game of plays and undos', () => {
    // A shut gate's record must rest on every direction its B could take at the time, or a
    // later move that gives the C a candidate along a direction it missed would go unseen.
    const lib = benchLibrary(300);
    const keys = (r: Recogniser, c: 'black' | 'white') => r.realisations(c).map((x) => x.key).sort();
    for (const seed of [3, 8]) {
      const rnd = seededRandom(seed);
      const board = generateGame(seed, 16).board.clone();
      const live = new Recogniser(board, lib);
      let compared = 0;
      for (let step = 0; step < 60; step++) {
        if (rnd.next() < 0.25 && board.stoneCount > 0) live.undo();
        else live.play(rnd.pick(emptiesNearCentre(board, 7)), rnd.next() < 0.5 ? BLACK : WHITE);
        expect(live.staleGates(), `seed ${seed} step ${step}`).toEqual([]);
        const fresh = new Recogniser(board.clone(), lib);
        for (const c of ['black', 'white'] as const) {
          const got = keys(live, c);
          expect(got, `seed ${seed} step ${step} ${c}`).toEqual(keys(fresh, c));
          compared += got.length;
        }
      }
      expect(compared).toBeGreaterThan(200);
    }
  });
});

describe('invariance', () => {
  const rnd = seededRandom(7);
  const lib = library([PAPER.fig1, PAPER.fig2, PAPER.fig4, PAPER.fig3, PAPER.fig6, PAPER.fig5, "(1) 3'", "(1, 2-1) 3', 2-2'"]);
  const pictures = [board('fig5-twin-threes'), board('fig6-four-then-double-four'), ...Array.from({ length: 4 }, () => randomPicture(rnd, 11, 0.3))];

  it('under the 8 board symmetries', () => {
    for (const pic of pictures) {
      const base = new Recogniser(boardFromPicture(pic), lib);
      for (const t of SYMMETRIES) {
        const moved = new Recogniser(boardFromPicture(transformPicture(pic, t)), lib);
        for (const colour of ['black', 'white'] as const) {
          const expected = mappedKeys(base.realisations(colour), (p) => transformPoint(pic.size, t, p));
          expect(mappedKeys(moved.realisations(colour), (p) => p), `symmetry ${t}`).toEqual(expected);
        }
      }
    }
  });

  it('under translation: every realisation that stays on the board moves with the stones', () => {
    // Board edges cut windows, so only realisations whose footprint (nodes, pattern points and
    // flanks) is on the board both before and after the shift are expected to correspond.
    const pic = board('fig6-four-then-double-four');
    const big: Cell[] = new Array(361).fill(EMPTY);
    pic.cells.forEach((c, p) => (big[(Math.floor(p / 9) + 5) * 19 + (p % 9) + 5] = c));
    const extra = randomPicture(seededRandom(8), 7, 0.35);
    extra.cells.forEach((c, p) => {
      const q = (Math.floor(p / 7) + 2) * 19 + (p % 7) + 9;
      if (big[q] === EMPTY) big[q] = c;
    });
    const bigPic = { size: 19, cells: big };
    const base = new Recogniser(boardFromPicture(bigPic), lib);
    let kept = 0;
    for (const [dc, dr] of [[3, 2], [-3, 1], [0, -2], [-1, 4]]) {
      const shifted = translatePicture(bigPic, dc, dr)!;
      expect(shifted).toBeDefined();
      const r = new Recogniser(boardFromPicture(shifted), lib);
      // Off the outer ring both before and after the shift, so every pattern's flanks are on
      // the board in both places (an off-board flank never spoils a pattern; an on-board one can).
      const inner = (p: number | undefined) => p !== undefined && p % 19 >= 1 && p % 19 <= 17 && Math.floor(p / 19) >= 1 && Math.floor(p / 19) <= 17;
      const stays = (foot: readonly number[], c: number, d: number) => foot.every((p) => inner(p) && inner(translatePoint(19, p, c, d)));
      for (const colour of ['black', 'white'] as const) {
        const before = base.realisations(colour).filter((x) => stays(x.footprint, dc, dr));
        const after = r.realisations(colour).filter((x) => stays(x.footprint, -dc, -dr));
        kept += before.length;
        expect(mappedKeys(after, (p) => p), `shift ${dc},${dr} ${colour}`).toEqual(mappedKeys(before, (p) => translatePoint(19, p, dc, dr)!));
      }
    }
    expect(kept).toBeGreaterThan(20);
  });

  it('under colour swap', () => {
    for (const pic of pictures) {
      const base = new Recogniser(boardFromPicture(pic), lib);
      const swapped = new Recogniser(boardFromPicture(swapColours(pic)), lib);
      expect(mappedKeys(swapped.realisations('black'), (p) => p)).toEqual(mappedKeys(base.realisations('white'), (p) => p));
      expect(mappedKeys(swapped.realisations('white'), (p) => p)).toEqual(mappedKeys(base.realisations('black'), (p) => p));
    }
  });
});

describe('incremental recognition', () => {
  it('after each play and undo equals recognising the board afresh (seeded game)', () => {
    const rnd = seededRandom(99);
    const lib = library([PAPER.fig1, PAPER.fig2, PAPER.fig4, PAPER.fig3, PAPER.fig6, PAPER.fig5, "(1) 3'", "(1, 2-1) 3', 2-2'"]);
    const board = Board.empty(15);
    const live = new Recogniser(board, lib);
    const keys = (r: Recogniser, c: 'black' | 'white') => r.realisations(c).map((x) => x.key).sort();
    for (let step = 0; step < 70; step++) {
      if (board.stoneCount > 2 && rnd.next() < 0.2) live.undo();
      else {
        const empties = Array.from({ length: 225 }, (_, p) => p).filter((p) => board.isEmpty(p) && Math.abs((p % 15) - 7) < 5 && Math.abs(Math.floor(p / 15) - 7) < 5);
        live.play(rnd.pick(empties), board.stoneCount % 2 === 0 ? BLACK : WHITE);
      }
      if (step % 5 === 4) {
        const fresh = new Recogniser(board.clone(), lib);
        expect(keys(live, 'black'), `step ${step}`).toEqual(keys(fresh, 'black'));
        expect(keys(live, 'white'), `step ${step}`).toEqual(keys(fresh, 'white'));
      }
    }
    expect(live.realisations('black').length + live.realisations('white').length).toBeGreaterThan(0);
  });
});

/** The empty points of a 19×19 board less than `within` steps from the centre along both axes. */
function emptiesNearCentre(board: Board, within: number): number[] {
  return Array.from({ length: 361 }, (_, p) => p).filter((p) => board.isEmpty(p) && Math.abs((p % 19) - 9) < within && Math.abs(Math.floor(p / 19) - 9) < within);
}

describe('incremental recognition keeps exactly the state of a fresh scan', () => {
  // Every field, not just the keys: the recogniser reruns only the runs a move can affect
  // and takes undone plays back from a journal, and must still show what a fresh scan shows.
  const full = (r: Recogniser) =>
    (['black', 'white'] as const).map((c) =>
      r.realisations(c).map((x) =>
        JSON.stringify({ subgoal: x.subgoal.text, colour: x.colour, nodes: x.nodes, lines: x.lines, implicit: x.implicit, comments: x.comments, footprint: x.footprint, span: x.span, key: x.key }),
      ),
    );
  const lib = benchLibrary(120);

  /**
   * A recogniser on a copy of the game's board, moved `steps` times by `move` and checked
   * after each move against a fresh scan of the board; returns how many realisations it
   * compared, and the recogniser's counts.
   */
  const followFresh = (library: readonly Subgoal[], game: Game, steps: number, move: (live: Recogniser, board: Board) => void): { compared: number; stats: RecogniseStats } => {
    const board = game.board.clone();
    const live = new Recogniser(board, library);
    let compared = 0;
    for (let step = 0; step < steps; step++) {
      move(live, board);
      const got = full(live);
      expect(got, `step ${step}`).toEqual(full(new Recogniser(board.clone(), library)));
      compared += got[0].length + got[1].length;
    }
    return { compared, stats: live.stats };
  };

  it('through plays, runs of undos (the journal) and undos of stones played before it was made', () => {
    const rnd = seededRandom(5);
    const { compared, stats } = followFresh(lib, generateGame(11, 40), 36, (live, board) => {
      if (rnd.next() < 0.4 && board.stoneCount > 0) {
        // Sometimes several in a row, down past the position the recogniser was made on.
        const n = 1 + rnd.int(3);
        for (let i = 0; i < n && board.stoneCount > 0; i++) live.undo();
      } else {
        live.play(rnd.pick(emptiesNearCentre(board, 6)), board.stoneCount % 2 === 0 ? BLACK : WHITE);
      }
    });
    expect(compared).toBeGreaterThan(100);
    // Runs that found something were sorted instead of made again (Recogniser.withoutLost).
    expect(stats.pruned).toBeGreaterThan(0);
  });

  it('with learned subgoals, through a long game of plays and undos by both colours', () => {
    // A run that found nothing is kept while moves only take away what it read (a stone of
    // the other colour, a window passing to another count), and run again when one adds to
    // it: kept records outlive many moves here, both ways, and must still be exact.
    const learned = expectOk(Library.fromFile(readFileSync(new URL('../bench/fixtures/learned-library.txt', import.meta.url), 'utf8'))).subgoals().slice(0, 400);
    const rnd = seededRandom(17);
    const { compared, stats } = followFresh(learned, generateGame(23, 30), 40, (live, board) => {
      if (rnd.next() < 0.3 && board.stoneCount > 0) live.undo();
      // Either colour, not strictly in turn: runs of one colour's stones add to its patterns.
      else live.play(rnd.pick(emptiesNearCentre(board, 7)), rnd.next() < 0.5 ? BLACK : WHITE);
    });
    expect(compared).toBeGreaterThan(200);
    expect(stats.pruned).toBeGreaterThan(0);
  });

  it('through trial plays and undos of many points at each move, as the player weighs its quiet moves', () => {
    // The player plays each of its best points for either side and takes it back (step 5a):
    // many journaled plays between two real moves, and the read arena is swept while the
    // journal holds dead runs an undo may bring back.
    const learned = expectOk(Library.fromFile(readFileSync(new URL('../bench/fixtures/learned-library.txt', import.meta.url), 'utf8'))).subgoals();
    const rnd = seededRandom(29);
    const { compared, stats } = followFresh(learned, generateGame(31, 12), 10, (live, board) => {
      for (const p of emptiesNearCentre(board, 6).slice(0, 20)) {
        live.play(p, BLACK);
        live.undo();
        live.play(p, WHITE);
        live.undo();
      }
      live.play(rnd.pick(emptiesNearCentre(board, 6)), board.stoneCount % 2 === 0 ? BLACK : WHITE);
    });
    expect(compared).toBeGreaterThan(100);
    expect(stats.journaledSweeps).toBeGreaterThan(0);
  });

  it('sorts the realisations of a run, without making it again, when a move only takes from what it read', () => {
    // Fig. 5's board: white takes g6, a vacant point of the patterns of the realisation with
    // nodes c6 and f6. For black the move only takes away (a window through g6 is no longer
    // possible), so the run that found it is not made again: the realisation is dropped from
    // its list, and what is left is a fresh scan's in every field.
    const lib = library([PAPER.fig5, PAPER.fig2, PAPER.fig3]);
    const live = new Recogniser(boardFromPicture(board('fig5-twin-threes')), lib);
    const twin = (r: Recogniser) => r.realisations('black').find((x) => x.nodes.map((p) => makePoint(r.board.size, p)).join(' ') === 'c6 f6');
    expect(twin(live)).toBeDefined();
    const before = { ...live.stats };
    live.play(expectOk(parsePoint(live.board.size, 'g6')), WHITE);
    expect(live.stats.pruned - before.pruned).toBe(1);
    expect(live.stats.runs - before.runs).toBe(0);
    expect(twin(live)).toBeUndefined();
    expect(full(live)).toEqual(full(new Recogniser(live.board.clone(), lib)));
    // And back: the undo restores the run's record and its realisations from the journal.
    live.undo();
    expect(twin(live)).toBeDefined();
    expect(full(live)).toEqual(full(new Recogniser(live.board.clone(), lib)));
  });

  it('after the board is changed directly and changed() is called', () => {
    const rnd = seededRandom(6);
    let step = 0;
    followFresh(lib, generateGame(12, 50), 10, (live, board) => {
      if (step++ % 3 === 2) {
        live.changed(board.undo());
      } else {
        const p = rnd.pick(emptiesNearCentre(board, 5));
        board.play(p, board.stoneCount % 2 === 0 ? BLACK : WHITE);
        live.changed(p);
      }
    });
  });
});

describe('limits', () => {
  it('a description with more nodes than the interpreter holds is refused, not thrown', () => {
    const nodes = Array.from({ length: 9 }, (_, i) => ({
      lines: [
        ...(i > 0 ? [{ others: [i], spec: { n: 3, dashed: false } }] : []),
        ...(i < 8 ? [{ others: [i + 2], spec: { n: 3, dashed: false } }] : []),
      ],
    }));
    const r = compileDescription({ nodes });
    expect(r.ok || r.error.code).toBe('too-complex');
  });
});
