/**
 * The reason for a move in words a person can read, beside the paper's. The player says why
 * it chose a move in the paper's terms (src/play/player.ts `explain`: "plays node 1 of
 * `(1, 1) 3:3', 3'`, five in 3"); most of its replies were once "builds its own 5-patterns and
 * spoils black's (by position: no learned realisation to act on)". Here the same reason becomes a sentence that
 * says what the move does on the board and warns when it matters: "I now have an open four at
 * k7–n10: you can stop only one end (j6 or o11)."
 *
 * Wording only. The facts come from the player's reason (which realisation, which forced
 * line, what it destroyed) and from the board around the move (lineShapes.ts); nothing here
 * chooses a move. Where a reason and the board say less than a sentence needs, the sentence
 * says less rather than guess.
 *
 * Variety without chance: where several phrasings fit, the position picks one (the move's
 * point and the number of stones), so a reply is the same every time it is drawn — a test can
 * hold it, and a replay says what the game said.
 */
import type { Board } from '../rules/board.ts';
import type { Game } from '../rules/game.ts';
import { explain, type MoveChoice } from '../play/player.ts';
import { colOf, makePoint, rowOf } from '../rules/point.ts';
import { movesToFive, quickest, type Realisation } from '../recognition/realisation.ts';
import { opposite, otherStone, stoneOf, type Point, type Stone } from '../rules/types.ts';
import { fiveThreats } from '../rules/threats.ts';
import { inLineOrder, shapesOfMove, type LineShape } from './lineShapes.ts';

/** The two sides as a sentence names them. */
export interface Voice {
  /** The mover, as a subject: "I" for the bot's own move, "you" for a hint. */
  readonly I: string;
  readonly you: string;
  readonly my: string;
  readonly your: string;
  /** The other side's, standing alone: "yours", "mine". */
  readonly yours: string;
  /** The two sides as objects: "me" and "you" for the bot's move, the other way round for a hint. */
  readonly me: string;
  readonly them: string;
  /** When the move's effects hold: "now" on the board, "then" for a hint. */
  readonly now: string;
}

/** The bot explaining the move it played. */
export const BOT_VOICE: Voice = { I: 'I', you: 'you', my: 'my', your: 'your', yours: 'yours', me: 'me', them: 'you', now: 'now' };
/** The bot explaining a move it suggests to the member. */
export const HINT_VOICE: Voice = { I: 'you', you: 'I', my: 'your', your: 'my', yours: 'mine', me: 'you', them: 'me', now: 'then' };

export interface ReasonWords {
  /** Plain sentences, each ending with a full stop. */
  readonly plain: string;
  /** The player's own explanation in the paper's terms, without the point it starts with. */
  readonly paper: string;
}

/** The reason for `choice`, made on `before` (the position it was chosen in). */
export function reasonWords(before: Board, choice: MoveChoice, voice: Voice = BOT_VOICE): ReasonWords {
  return { plain: plainReason(before, choice, voice), paper: paperReason(choice, before.size, voice === HINT_VOICE) };
}

/** The position a choice was made in: the game's, or the one before its last move if that was the choice. */
export function positionOf(game: Game, choice: MoveChoice): Board {
  const board = game.board.clone();
  if (!board.isEmpty(choice.point) && board.moves[board.moves.length - 1] === choice.point) board.undo();
  return board;
}

export function paperReason(choice: MoveChoice, size: number, advice = false): string {
  const said = explain(choice, size, advice);
  const prefix = `${makePoint(size, choice.point)}: `;
  return said.startsWith(prefix) ? said.slice(prefix.length) : said;
}

function plainReason(before: Board, choice: MoveChoice, v: Voice): string {
  const size = before.size;
  const at = (p: Point) => makePoint(size, p);
  const me = stoneOf(choice.colour);
  const them = otherStone(me);
  const p = choice.point;
  const mine = shapesOfMove(before, p, me);
  const threat = ownThreat(before, p, mine, v);
  const pick = chooser(before, p);
  const reason = choice.reason;
  const also = threat === undefined ? '' : ` ${threat}`;
  switch (reason.kind) {
    case 'opening':
      return pick(['The centre: the point with the most room for fives.', 'The middle of the board, where every line has room to grow.']);
    case 'five':
      return pick([`That completes ${v.my} five.`, `Five in a row for ${v.me}.`]);
    case 'block-five': {
      const five = shapesOfMove(before, p, them).find((s) => s.kind === 'five');
      const four = five === undefined ? undefined : span(size, five.stones.filter((q) => q !== p));
      // An open four, or two fours: one block cannot stop them, and the words must not say it does.
      const others = fiveThreats(before, them).filter((q) => q !== p);
      if (others.length > 0) {
        const what = four === undefined ? `${cap(v.you)} could complete a five at ${at(p)}` : `${cap(v.you)} had a four at ${four}`;
        return `${what}: ${v.I} block it at ${at(p)}, but ${v.you} can still make five at ${others.map(at).join(' or ')}, and one move cannot stop both.${also}`;
      }
      const said = four === undefined
        ? `${cap(v.you)} could complete a five at ${at(p)}: ${v.I} block it.`
        : pick([`${cap(v.you)} had a four at ${four}: ${v.I} block it at ${at(p)}.`, `${cap(v.your)} four at ${four} needed ${at(p)}: ${v.I} block it there.`]);
      return said + also;
    }
    case 'refute': {
      const q = reason.line.line[0].point;
      const k = reason.line.moves;
      const theirs = shapesOfMove(before, q, them);
      const noun = threatNoun(size, theirs);
      const openFour = theirs.find((s) => s.kind === 'open-four');
      let said: string;
      if (openFour !== undefined && onLine(before, openFour, p)) {
        // An open four at q: the other side holds an open three now, and the move blocks it.
        said = `${cap(v.you)} have an open three at ${span(size, openFour.stones.filter((x) => x !== q))}: ${v.I} block it at ${at(p)}.`;
      } else if (q === p) {
        said = noun === undefined
          ? `From ${at(q)} ${v.you} could force a five in ${k} moves: ${v.I} take the point first.`
          : pick([
              `${cap(v.you)} have ${noun} after ${at(q)} if ${v.I} don't block: ${v.I} block at ${at(q)}.`,
              `${cap(v.your)} point was ${at(q)}: it would give ${v.them} ${noun} and a five in ${k} moves, so ${v.I} take it first.`,
            ]);
      } else {
        said = noun === undefined
          ? `${cap(v.you)} could force a five in ${k} moves, starting at ${at(q)}: ${v.I} play ${at(p)} to stop it.`
          : `${cap(v.you)} would have ${noun} after ${at(q)}, and a five in ${k} moves: ${v.I} play ${at(p)} to stop it.`;
      }
      // Which of the blocks that hold, and why this one.
      const among = reason.holding !== undefined && reason.holding > 1 ? ` Of the ${reason.holding} blocks that would hold, this one leaves ${v.them} least to build on.` : '';
      return said + among + also;
    }
    case 'defend':
      return defendWords(before, choice, reason.destroyed, v) + also;
    case 'attack':
      return threat ?? `${cap(v.I)} play toward a five in ${reason.moves} moves, with a pattern my library knows.`;
    case 'force': {
      const [, reply, next] = reason.line.line;
      const then = reply !== undefined && next !== undefined ? `: after ${v.your} ${at(reply.point)}, ${v.I} play ${at(next.point)}` : '';
      const force = `${cap(v.I)} can force a five in ${reason.line.moves} moves from here${then}.`;
      // A four or an open four already says how the five comes.
      if (threat !== undefined && reason.line.moves <= 2) return threat;
      return threat === undefined ? force : `${threat} ${force}`;
    }
    case 'build': {
      // Its own shape first; the other side's point, said as such when that is all it is.
      const own = reason.mine.quickest;
      const theirs = reason.theirs.quickest;
      if (own === undefined) {
        const from = at(commentedNode(theirs!));
        return threat ?? `A quiet move on ${v.your} best point: from here ${v.you} could have built toward a five in ${movesToFive(theirs!)} moves with a shape the library has learned, starting at ${from}.`;
      }
      const n = reason.mine.count;
      const from = at(commentedNode(own));
      const k = movesToFive(own)!;
      const also = theirs === undefined ? '' : ` It also takes a point ${v.you} could have built on.`;
      return (threat ?? pick([
        `A quiet move toward shapes the library has learned: ${v.I} ${v.now} hold ${n === 1 ? 'one' : n} of them, the nearest a five in ${k} moves from ${from}.`,
        `${cap(v.I)} build toward what the library has learned: from ${from}, a five in ${k} moves unless ${v.you} break it up.`,
      ])) + (threat === undefined ? also : '');
    }
    case 'positional':
      return threat ?? positionalWords(before, p, me, mine, v, pick);
  }
}

/**
 * What the mover threatens after the move, strongest first, or undefined when it threatens
 * nothing worth a warning (no four, no open three).
 */
function ownThreat(before: Board, p: Point, mine: readonly LineShape[], v: Voice): string | undefined {
  const size = before.size;
  const at = (q: Point) => makePoint(size, q);
  const pick = chooser(before, p);
  const fours = mine.filter((s) => s.kind === 'four' || s.kind === 'open-four');
  const threes = mine.filter((s) => s.kind === 'open-three');
  const openFour = mine.find((s) => s.kind === 'open-four');
  if (openFour !== undefined) {
    const [a, b] = openFour.points;
    const ends = straight(before, openFour) ? 'end' : 'point';
    return pick([
      `${cap(v.I)} ${v.now} have an open four at ${span(size, openFour.stones)}: ${v.you} can stop only one ${ends} (${at(a)} or ${at(b)}).`,
      `An open four at ${span(size, openFour.stones)}: whichever ${ends} ${v.you} block, ${at(a)} or ${at(b)}, ${v.I} play the other.`,
    ]);
  }
  if (fours.length >= 2) {
    const [f, g] = fours;
    return `${cap(v.I)} ${v.now} have two fours, at ${span(size, f.stones)} and ${span(size, g.stones)}: ${v.you} can block only one (${at(f.points[0])} or ${at(g.points[0])}).`;
  }
  if (fours.length === 1) {
    const f = fours[0];
    if (threes.length > 0) {
      const t = threes[0];
      return `${cap(v.I)} have a four at ${span(size, f.stones)} and an open three at ${span(size, t.stones)}: ${v.you} must block at ${at(f.points[0])}, and then ${v.I} make the three an open four.`;
    }
    return pick([`${cap(v.I)} have a four at ${span(size, f.stones)}: ${v.you} must block at ${at(f.points[0])}.`, `That makes a four, ${span(size, f.stones)}: ${v.you} must block at ${at(f.points[0])}.`]);
  }
  if (threes.length >= 2) {
    // Two lines meet only at the move, so no one stone stops both threes.
    const [t, u] = threes;
    return pick([
      `${cap(v.I)} ${v.now} have two open threes, at ${span(size, t.stones)} and ${span(size, u.stones)}: ${v.you} can block only one of them.`,
      `Two open threes at once, ${span(size, t.stones)} and ${span(size, u.stones)}: whichever ${v.you} block, ${v.I} make the other an open four.`,
    ]);
  }
  if (threes.length === 1) {
    const t = threes[0];
    const where = orList(t.points.map(at));
    return pick([
      `${cap(v.I)} ${v.now} have an open three at ${span(size, t.stones)}: unless ${v.you} block it, ${v.I} make an open four at ${where}.`,
      `That is an open three, ${span(size, t.stones)}: left alone, it becomes an open four at ${where}.`,
    ]);
  }
  return undefined;
}

/**
 * A defence from the player's fourth rule: the quickest realisation it destroyed, said by
 * what the other side would have made at that realisation's commented node.
 */
function defendWords(before: Board, choice: MoveChoice, destroyed: readonly Realisation[], v: Voice): string {
  const size = before.size;
  const at = (q: Point) => makePoint(size, q);
  const p = choice.point;
  const them = stoneOf(opposite(choice.colour));
  const r = quickest(destroyed);
  if (r === undefined) return `${cap(v.I)} spoil what ${v.I} can of ${v.your} patterns here.`;
  const q = commentedNode(r);
  const k = movesToFive(r)!;
  const theirs = shapesOfMove(before, q, them);
  const openFour = theirs.find((s) => s.kind === 'open-four');
  // Whether the move stands on the shape the words name (its stones' line, or a point that
  // completes it); if not, it breaks the learned realisation elsewhere, and the words say so
  // rather than "block it at" a point off that line.
  const onShape = (s: { readonly stones: readonly Point[]; readonly points: readonly Point[] }) => p === q || s.points.includes(p) || betweenOnLine(size, s.stones, p);
  if (openFour !== undefined) {
    // An open four at q: the other side holds an open three now, and the move blocks it.
    const three = span(size, openFour.stones.filter((x) => x !== q));
    if (onShape(openFour)) return `${cap(v.you)} have an open three at ${three}: ${v.I} block it at ${at(p)}.`;
    return `${cap(v.you)} have an open three at ${three}, part of a learned shape that makes a five in ${k} moves: ${v.I} play ${at(p)}, another of its points, to break the shape.`;
  }
  const noun = threatNoun(size, theirs);
  if (noun !== undefined) {
    if (p === q) return `At ${at(q)} ${v.you} would have ${noun}: ${v.I} take the point first.`;
    if (theirs.some(onShape)) return `At ${at(q)} ${v.you} would have ${noun}: ${v.I} play ${at(p)} to spoil it.`;
    return `At ${at(q)} ${v.you} would have ${noun}, part of a learned shape that makes a five in ${k} moves: ${v.I} play ${at(p)}, another of its points, to break the shape.`;
  }
  return `${cap(v.you)} could make a five in ${k} moves, starting at ${at(q)}: ${v.I} break that up at ${at(p)}.`;
}

/** p lies on the line of `stones` (two or more, in line order), between the first and the last. */
function betweenOnLine(size: number, stones: readonly Point[], p: Point): boolean {
  if (stones.length < 2) return false;
  const last = stones[stones.length - 1];
  const [r0, c0] = [rowOf(size, stones[0]), colOf(size, stones[0])];
  const [r1, c1] = [rowOf(size, last), colOf(size, last)];
  const [r, c] = [rowOf(size, p), colOf(size, p)];
  const cross = (r1 - r0) * (c - c0) - (c1 - c0) * (r - r0);
  return cross === 0 && Math.min(r0, r1) <= r && r <= Math.max(r0, r1) && Math.min(c0, c1) <= c && c <= Math.max(c0, c1);
}

function positionalWords(before: Board, p: Point, me: Stone, mine: readonly LineShape[], v: Voice, pick: <T>(options: readonly T[]) => T): string {
  const size = before.size;
  // What the player acts on is what the library holds: a shape it has not learned is no threat
  // to it, so the words say "nothing learned", never that there is nothing on the board.
  const them = otherStone(me);
  const blocked = shapesOfMove(before, p, them).find((s) => s.kind === 'open-four');
  if (blocked !== undefined) {
    const three = span(size, blocked.stones.filter((q) => q !== p));
    return `${cap(v.you)} have an open three at ${three}. The library holds nothing yet that reads it as a threat, so this is a move by position, and it blocks one end.`;
  }
  const lead = pick([
    `With nothing learned to act on, ${v.I} take the point that does most for ${v.my} lines and most against ${v.yours}.`,
    `A quiet move: it builds ${v.my} lines and gets in the way of ${v.yours}.`,
    `Nothing I have learned to attack or defend here, so ${v.I} build where ${v.my} lines and ${v.yours} cross.`,
  ]);
  // One fact from the board, the most telling: a three of the mover's, the other side's
  // stones it stands in the way of, or a stone it pairs with.
  const own = mine[0];
  const theirs = shapesOfMove(before, p, them)[0];
  const others = theirs === undefined ? [] : theirs.stones.filter((q) => q !== p);
  let fact = '';
  if (own !== undefined && own.kind === 'three') fact = ` It makes a three at ${span(size, own.stones)}, though it cannot become an open four.`;
  else if (others.length >= 2) fact = ` It stands in the way of ${v.your} stones at ${orList(others.map((q) => makePoint(size, q)), 'and')}.`;
  else if (own !== undefined && own.kind === 'two') fact = ` It pairs with ${v.my} stone at ${makePoint(size, own.stones.find((q) => q !== p)!)}.`;
  return lead + fact;
}

/** What a set of shapes threatens, as a noun phrase ("two open threes (f8–h8 and h6–h8)"), if anything. */
function threatNoun(size: number, shapes: readonly LineShape[]): string | undefined {
  const fours = shapes.filter((s) => s.kind === 'four' || s.kind === 'open-four');
  const threes = shapes.filter((s) => s.kind === 'open-three');
  const five = shapes.find((s) => s.kind === 'five');
  const open = shapes.find((s) => s.kind === 'open-four');
  if (five !== undefined) return `a five at ${span(size, five.stones)}`;
  if (open !== undefined) return `an open four at ${span(size, open.stones)}`;
  if (fours.length >= 2) return `two fours (${span(size, fours[0].stones)} and ${span(size, fours[1].stones)})`;
  if (fours.length === 1 && threes.length > 0) return `a four and an open three (${span(size, fours[0].stones)} and ${span(size, threes[0].stones)})`;
  if (fours.length === 1) return `a four at ${span(size, fours[0].stones)}`;
  if (threes.length >= 2) return `two open threes (${span(size, threes[0].stones)} and ${span(size, threes[1].stones)})`;
  if (threes.length === 1) return `an open three at ${span(size, threes[0].stones)}`;
  return undefined;
}

/** The empty points between a shape's first and last stone. */
function between(board: Board, s: LineShape): Point[] {
  const [first, last] = [s.stones[0], s.stones[s.stones.length - 1]];
  const size = board.size;
  const steps = Math.max(Math.abs((last % size) - (first % size)), Math.abs(Math.floor(last / size) - Math.floor(first / size)));
  if (steps === 0) return [];
  const step = (last - first) / steps;
  const out: Point[] = [];
  for (let i = 1; i < steps; i++) if (board.isEmpty(first + i * step)) out.push(first + i * step);
  return out;
}

/** Whether p is one of a shape's points, or lies between its ends. */
function onLine(board: Board, s: LineShape, p: Point): boolean {
  if (s.points.includes(p) || s.stones.includes(p)) return true;
  const ends = inLineOrder(board, [...s.points, ...s.stones]);
  return between(board, { ...s, stones: [ends[0], ends[ends.length - 1]] }).includes(p);
}

/** Whether a four's two completing points are its ends (`.XXXX.`), not a gap (`X.XXX.X`). */
function straight(before: Board, s: LineShape): boolean {
  const sorted = inLineOrder(before, [...s.points, ...s.stones]);
  return s.points.includes(sorted[0]) && s.points.includes(sorted[sorted.length - 1]);
}

/** "k7–n10": a line's stones by its ends; one stone by its point. */
function span(size: number, stones: readonly Point[]): string {
  if (stones.length === 0) return '';
  const first = makePoint(size, stones[0]);
  const last = makePoint(size, stones[stones.length - 1]);
  return first === last ? first : `${first}–${last}`;
}

/** "a", "a or b", "a, b or c". */
function orList(items: readonly string[], word = 'or'): string {
  return items.length <= 1 ? (items[0] ?? '') : `${items.slice(0, -1).join(', ')} ${word} ${items[items.length - 1]}`;
}

/** The node with the smallest comment: where the realisation's owner would play. */
function commentedNode(r: Realisation): Point {
  let best = 0;
  r.comments.forEach((c, i) => {
    if (c !== undefined && c < (r.comments[best] ?? Infinity)) best = i;
  });
  return r.nodes[best];
}

/**
 * Picks one of several phrasings by the position: the move's point and the mover's move
 * number, so that moves in a game, and the same kind of move in different games, read differently.
 */
function chooser(before: Board, p: Point): <T>(options: readonly T[]) => T {
  const h = p * 7 + Math.floor(before.stoneCount / 2) * 3;
  return (options) => options[h % options.length];
}

function cap(s: string): string {
  return s.charAt(0).toUpperCase() + s.slice(1);
}
