// The bot's reasons in plain words (src/bot/reasonWords.ts), on hand-built positions in
// test/fixtures/reasons and test/fixtures/player: each kind of the player's reason, each kind of
// warning, and the hint's voice, as exact sentences; then, over whole games the player plays
// against itself, every claim about fours and open threes checked against the threat
// classifier (src/rules/threats.ts), which reads the board independently.
import { describe, expect, it } from 'vitest';
import { BOT_VOICE, HINT_VOICE, positionOf, reasonWords } from '../../src/bot/reasonWords.ts';
import { Game } from '../../src/rules/game.ts';
import { parseGame } from '../../src/rules/gameRecord.ts';
import { createPlayer, type Level } from '../../src/play/player.ts';
import { makePoint, parsePoint } from '../../src/rules/point.ts';
import { expectOk } from '../../src/rules/result.ts';
import { fiveThreats, openFourPoints } from '../../src/rules/threats.ts';
import { stoneOf } from '../../src/rules/types.ts';
import { recognise } from '../../src/recognition/recognise.ts';
import { movesToFive } from '../../src/recognition/realisation.ts';
import { fixture } from '../support/fixtures.ts';
import { library } from '../support/recognition.ts';

const RULE = ['(1) 1:5'];
const OPEN_FOUR = ['(1) 1:5', "(1) 2:4'"];
const PAPER = ['(1) 1:5', "(1) 2:4'", '(1, 1) 2:4, 4', "(1, 1) 3:3', 3'", '(1, 2-1) 4, 3-3:4', "(1, 2-1, 2) 4:3', 2'-4:2', 3'"];

/** The bot's choice on a fixture, and its reason in words. */
function said(path: string, subgoals: readonly string[], level: Level, hint = false) {
  const game = expectOk(parseGame(fixture(path)));
  const player = createPlayer({ library: library(subgoals), level, seed: 1 });
  const choice = hint ? player.hint(game) : player.choose(game);
  const words = reasonWords(game.board, choice, hint ? HINT_VOICE : BOT_VOICE);
  return { point: makePoint(game.size, choice.point), kind: choice.reason.kind, ...words };
}

describe('reasons in plain words, one kind of reason at a time', () => {
  it('the opening', () => {
    const game = Game.create(15);
    const choice = createPlayer({ library: library(RULE) }).choose(game);
    expect(reasonWords(game.board, choice)).toEqual({ plain: 'The centre: the point with the most room for fives.', paper: 'opens at the centre' });
  });

  it('a five', () => {
    expect(said('player/complete-five.txt', RULE, 5)).toEqual({ point: 'c8', kind: 'five', plain: 'Five in a row for me.', paper: 'completes a five' });
  });

  it("blocking the member's four, and what the block makes of the bot's own stones", () => {
    expect(said('player/block-four.txt', RULE, 5)).toEqual({
      point: 'k4',
      kind: 'block-five',
      plain: 'Your four at g4–j4 needed k4: I block it there.',
      paper: "stops white's five (destroys white's realisation of `(1) 1:5` at k4)",
    });
    // The same block, also a third stone under k5 k6: an open three (k3 and k7 make open fours).
    expect(said('reasons/block-and-three.txt', PAPER, 5).plain).toBe(
      'Your four at g4–j4 needed k4: I block it there. That is an open three, k4–k6: left alone, it becomes an open four at k3 or k7.',
    );
    // Under k5 k6 k7, with white on k8: a four, which only k3 completes. One move later in the
    // game, so the other phrasing of the block.
    expect(said('reasons/block-and-four.txt', PAPER, 5).plain).toBe('You had a four at g4–j4: I block it at k4. I have a four at k4–k7: you must block at k3.');
    // An open four: a block at one end does not save the game, and the words do not say it does.
    const open = said('reasons/block-open-four.txt', RULE, 5);
    expect(open.kind).toBe('block-five');
    const other = open.point === 'f4' ? 'k4' : 'f4';
    expect(open.plain).toBe(`You had a four at g4–j4: I block it at ${open.point}, but you can still make five at ${other}, and one move cannot stop both.`);
  });

  it('an attack from a realisation: an open four', () => {
    expect(said('reasons/open-four.txt', OPEN_FOUR, 2)).toEqual({
      point: 'e8',
      kind: 'attack',
      plain: 'I now have an open four at e8–h8: you can stop only one end (d8 or i8).',
      paper: "plays node 1 of `(1) 2:4'`, five in 2",
    });
  });

  it('a forced line: two open threes, two fours, a four and a three at once', () => {
    expect(said('player/double-three.txt', PAPER, 5)).toEqual({
      point: 'j8',
      kind: 'force',
      plain: 'I now have two open threes, at h8–j8 and j6–j8: you can block only one of them. I can force a five in 3 moves from here.',
      paper: "plays node 1 of `(1, 1) 3:3', 3'`, five in 3",
    });
    // A four or an open four says how the five comes: the forced line is not said again.
    expect(said('reasons/double-four.txt', PAPER, 5)).toEqual({
      point: 'h8',
      kind: 'force',
      plain: 'I now have two fours, at e8–h8 and h5–h8: you can block only one (i8 or h9).',
      paper: "plays node 1 of `(1, 1) 2:4, 4`, five in 2: after your i8 I play h9",
    });
    expect(said('reasons/four-three.txt', PAPER, 5)).toEqual({
      point: 'g6',
      kind: 'force',
      plain: 'I have a four at d6–g6 and an open three at g6–g8: you must block at h6, and then I make the three an open four. I can force a five in 3 moves from here: after your h6, I play g5.',
      paper: 'makes `(1) 1:5`, five in 3: after your h6 I play g5, making `(1) 1:5`',
    });
  });

  it("stopping the member's forced line: two open threes, or an open three", () => {
    expect(said('reasons/double-three-threat.txt', PAPER, 5)).toEqual({
      point: 'j8',
      kind: 'refute',
      plain: "You have two open threes (h8–j8 and j6–j8) after j8 if I don't block: I block at j8. Of the 5 blocks that would hold, this one leaves you least to build on.",
      paper: "stops black's forced line — black would play j8 (node of `(1, 1) 3:3', 3'`) and win in 3; of the 5 defences that hold, the one that leaves black least to build",
    });
    expect(said('player/open-three.txt', OPEN_FOUR, 5)).toEqual({
      point: 'f7',
      kind: 'refute',
      plain: 'You have an open three at g7–i7: I block it at f7. Of the 2 blocks that would hold, this one leaves you least to build on.',
      paper: "stops white's forced line — white would play f7 (node of `(1) 2:4'`) and win in 2; of the 2 defences that hold, the one that leaves white least to build",
    });
  });

  it('a block made by position, with nothing learned that reads the three, says so rather than that nothing is there', () => {
    expect(said('player/open-three.txt', RULE, 2)).toMatchObject({
      point: 'f7',
      kind: 'positional',
      plain: 'You have an open three at g7–i7. The library holds nothing yet that reads it as a threat, so this is a move by position, and it blocks one end.',
    });
  });

  it('a defence off the line of the three it names says it breaks the learned shape, not that it blocks the three', () => {
    // White's open three g7 h7 i7 (player/open-three.txt), seen through `(1) 2:4'`; a defence at
    // a point of that realisation off the row (as a learned shape's other node can be) is not
    // "block it at" that point.
    const game = expectOk(parseGame(fixture('player/open-three.txt')));
    const seen = recognise(game.board, library(OPEN_FOUR));
    const three = seen.white.find((r) => movesToFive(r) === 2)!;
    const at = (t: string) => expectOk(parsePoint(game.size, t));
    const on = reasonWords(game.board, { point: at('f7'), colour: 'black', reason: { kind: 'defend', destroyed: [three], threats: 1 } });
    expect(on.plain).toBe('You have an open three at g7–i7: I block it at f7.');
    const off = reasonWords(game.board, { point: at('h9'), colour: 'black', reason: { kind: 'defend', destroyed: [three], threats: 1 } });
    expect(off.plain).toBe('You have an open three at g7–i7, part of a learned shape that makes a five in 2 moves: I play h9, another of its points, to break the shape.');
  });

  it("destroying the member's realisations without look-ahead (level 2)", () => {
    expect(said('player/open-three.txt', OPEN_FOUR, 2)).toEqual({
      point: 'j7',
      kind: 'defend',
      plain: 'You have an open three at g7–i7: I block it at j7.',
      paper: "destroys white's realisations of `(1) 2:4'` at f7, `(1) 2:4'` at j7",
    });
  });

  it('positional play: what the move makes, else a quiet sentence with one fact from the board', () => {
    expect(said('reasons/quiet.txt', RULE, 5)).toEqual({
      point: 'i8',
      kind: 'positional',
      plain: 'Nothing I have learned to attack or defend here, so I build where my lines and yours cross. It pairs with my stone at h8.',
      paper: "builds its own 5-patterns and spoils white's (by position: no learned realisation to act on)",
    });
    // f8 beside h8 i8: a split three, whose only open-four point is the gap.
    expect(said('reasons/quiet-two.txt', RULE, 5).plain).toBe('I now have an open three at f8–i8: unless you block it, I make an open four at g8.');
  });

  it('building toward what the library has learned: how many realisations the move leaves, and the nearest five', () => {
    expect(said('reasons/build.txt', PAPER, 5)).toEqual({
      point: 'j9',
      kind: 'build',
      plain: 'A quiet move toward shapes the library has learned: I now hold 28 of them, the nearest a five in 4 moves from h7.',
      paper: "builds toward what it has learned — after it, 28 realisations of its subgoals, the quickest `(1, 2-1, 2) 4:3', 2'-4:2', 3'` at h7 h10, five in 4",
    });
    expect(said('reasons/build.txt', PAPER, 5, true).plain).toBe('A quiet move toward shapes the library has learned: you then hold 28 of them, the nearest a five in 4 moves from h7.');
  });

  it('taking the other side\'s best point, said as such', () => {
    expect(said('reasons/build-deny.txt', PAPER, 5)).toEqual({
      point: 'j9',
      kind: 'build',
      plain: 'A quiet move on your best point: from here you could have built toward a five in 4 moves with a shape the library has learned, starting at h7.',
      paper: "takes black's best point by what it has learned — there black would have had 28 realisations of its subgoals, the quickest `(1, 2-1, 2) 4:3', 2'-4:2', 3'` at h7 h10, five in 4",
    });
  });

  it("a hint's line in the paper's terms has the bot reply and the member play on", () => {
    const hint = said('reasons/four-three.txt', PAPER, 5, true);
    expect(hint.paper).toBe('makes `(1) 1:5`, five in 3: after my h6 you play g5, making `(1) 1:5`');
  });

  it('a hint speaks to the member', () => {
    expect(said('player/double-three.txt', PAPER, 5, true).plain).toBe(
      'You then have two open threes, at h8–j8 and j6–j8: I can block only one of them. You can force a five in 3 moves from here.',
    );
    expect(said('reasons/quiet.txt', RULE, 5, true).plain).toBe('Nothing I have learned to attack or defend here, so you build where your lines and mine cross. It pairs with your stone at h8.');
  });

  it('reads the position the choice was made in, whether or not the move is on the board yet', () => {
    const game = expectOk(parseGame(fixture('player/double-three.txt')));
    const choice = createPlayer({ library: library(PAPER), seed: 1 }).choose(game);
    const before = reasonWords(positionOf(game, choice), choice);
    expectOk(game.play(choice.point));
    expect(reasonWords(positionOf(game, choice), choice)).toEqual(before);
  });
});

describe('reasons in plain words, over whole games', () => {
  it('never claims a four, an open four or an open three the board does not hold, and varies its phrasing', () => {
    const sentences = new Set<string>();
    let claims = 0;
    let blocks = 0;
    for (let seed = 1; seed <= 6; seed++) {
      const game = Game.create(15);
      const players = [createPlayer({ library: library(PAPER), level: 3, seed }), createPlayer({ library: library(seed % 2 === 0 ? PAPER : RULE), level: 2, seed: seed + 10 })];
      while (!game.isOver && game.moves.length < 120) {
        const choice = players[game.moves.length % 2].choose(game);
        const { plain } = reasonWords(game.board, choice);
        // "an open three at A–B: I block it at X": X is on that line, between or at its ends.
        for (const m of plain.matchAll(/open three at ([a-o]\d+)–([a-o]\d+): I block it at ([a-o]\d+)/g)) {
          const [a, b, x] = [m[1], m[2], m[3]].map((t) => expectOk(parsePoint(15, t)));
          const [ra, ca, rb, cb, rx, cx] = [a, b, x].flatMap((q) => [Math.floor(q / 15), q % 15]);
          const [dr, dc] = [Math.sign(rb - ra), Math.sign(cb - ca)];
          const steps = Math.max(Math.abs(rb - ra), Math.abs(cb - ca));
          const onLine = Array.from({ length: steps + 5 }, (_, i) => i - 2).some((i) => ra + i * dr === rx && ca + i * dc === cx);
          expect(onLine, plain).toBe(true);
          blocks++;
        }
        expect(plain).toMatch(/^[A-Z].*\.$/);
        sentences.add(plain.replace(/[a-o]\d+/g, '·'));
        expectOk(game.play(choice.point));
        const me = stoneOf(choice.colour);
        const at = (text: string) => expectOk(parsePoint(15, text));
        // "you must block at X": X completes a five of the mover's.
        for (const m of plain.matchAll(/must block at ([a-o]\d+)/g)) {
          expect(fiveThreats(game.board, me)).toContain(at(m[1]));
          claims++;
        }
        // "(X or Y)" after an open four or two fours: both complete a five.
        for (const m of plain.matchAll(/(?:open four at [^:]+: .*|two fours.*)\(([a-o]\d+) or ([a-o]\d+)\)/g)) {
          expect(fiveThreats(game.board, me)).toEqual(expect.arrayContaining([at(m[1]), at(m[2])]));
          claims++;
        }
        // "an open four at X or Y" after an open three: each is an open-four point.
        for (const m of plain.matchAll(/open four at ((?:[a-o]\d+(?:, | or )?)+)\./g)) {
          for (const p of m[1].split(/, | or /)) expect(openFourPoints(game.board, me)).toContain(at(p));
          claims++;
        }
      }
    }
    expect(claims).toBeGreaterThan(10);
    expect(blocks).toBeGreaterThan(0);
    // Phrasings, with the points taken out: far more than one.
    expect(sentences.size).toBeGreaterThan(10);
  });
});
