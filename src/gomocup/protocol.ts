/**
 * The Gomocup (Piskvork) protocol, by which a tournament manager talks to a "brain" over
 * its standard input and output, one line at a time. This module is pure: it parses and
 * prints protocol lines, and `GomocupSession` is the brain's side as a state machine that
 * takes one line and returns the reply lines. Reading stdin is the edge's job
 * (src/cli/brain.ts); the manager's side lives in src/gomocup/match.ts.
 *
 * Manager → brain: `START n`, `RECTSTART w,h`, `RESTART`, `BEGIN`, `TURN x,y`, `BOARD` then
 * lines `x,y,f` then `DONE`, `TAKEBACK x,y`, `INFO key value`, `ABOUT`, `END`.
 * Brain → manager: `OK`, `x,y`, `ERROR message`, `UNKNOWN message` (a command it does not know), `MESSAGE text`, `DEBUG text`, and the
 * `ABOUT` line `name="…", version="…", author="…", country="…"`.
 *
 * Coordinates: Gomocup's (x, y) counts x from the left and y from the TOP row, 0-based, as
 * Piskvork draws the board; our points count rows from the bottom. So Gomocup (x, y) is our
 * column x, row size-1-y, and a board looks the same on both screens: Gomocup 0,0 is a15 on
 * 15×15 (top left), 14,14 is o1 (bottom right). See docs/GOMOCUP.md for every decision.
 */
import { nearestCentre, type MoveClock, type MovePlayer } from '../play/engine.ts';
import { describeStatus, Game } from '../rules/game.ts';
import { colOf, makePoint, pointAt, rowOf, validSize } from '../rules/point.ts';
import { err, ok, problem, shownInput, type Problem, type Result } from '../rules/result.ts';
import { MAX_SIZE, MIN_SIZE, opposite, type Colour, type Point } from '../rules/types.ts';
import { oneLine } from '../rules/textLines.ts';

// ---------------------------------------------------------------------------------------
// Coordinates

/** Our point for Gomocup (x, y), or undefined when it is off a board of this size. */
export function fromGomocup(size: number, x: number, y: number): Point | undefined {
  if (!Number.isInteger(x) || !Number.isInteger(y) || x < 0 || y < 0 || x >= size || y >= size) return undefined;
  return pointAt(size, x, size - 1 - y);
}

/** Gomocup (x, y) of our point: x the column, y counted from the top row. */
export function toGomocup(size: number, p: Point): { readonly x: number; readonly y: number } {
  return { x: colOf(size, p), y: size - 1 - rowOf(size, p) };
}

// ---------------------------------------------------------------------------------------
// Notation: commands (manager → brain)

export type GomocupCommand =
  | { readonly kind: 'start'; readonly size: number }
  | { readonly kind: 'rectstart'; readonly width: number; readonly height: number }
  | { readonly kind: 'restart' }
  | { readonly kind: 'begin' }
  | { readonly kind: 'turn'; readonly x: number; readonly y: number }
  | { readonly kind: 'board' }
  /** A line `x,y,f` of a BOARD block: f is 1 own stone, 2 opponent's, 3 continuous-game line. */
  | { readonly kind: 'stone'; readonly x: number; readonly y: number; readonly field: number }
  | { readonly kind: 'done' }
  | { readonly kind: 'takeback'; readonly x: number; readonly y: number }
  | { readonly kind: 'info'; readonly key: string; readonly value: string }
  | { readonly kind: 'about' }
  | { readonly kind: 'end' };

const NO_ARGUMENT = { RESTART: 'restart', BEGIN: 'begin', BOARD: 'board', DONE: 'done', ABOUT: 'about', END: 'end' } as const;

/** Protocol numbers are small whole numbers; six digits is more than any board needs. */
const NUMBER = /^\d{1,6}$/;

/** Parses `a,b` (or `a,b,c` with `count` 3) of whole numbers; `at` is the text's index in its line. */
function parseNumbers(text: string, count: number, at: number, what: string): Result<number[]> {
  const parts = text.split(',');
  if (text.trim() === '' || parts.length !== count) {
    const needs = count === 1 ? 'a number' : `${count} numbers separated by commas`;
    return err(problem('bad-arguments', `${what} needs ${needs}${text.trim() === '' ? '' : `, not "${shownInput(text)}"`}`, { index: at }));
  }
  const values: number[] = [];
  let offset = at;
  for (const part of parts) {
    const trimmed = part.trim();
    if (!NUMBER.test(trimmed)) {
      return err(problem('bad-number', `"${shownInput(trimmed)}" in ${what} is not a whole number from 0`, { index: offset + part.indexOf(trimmed) }));
    }
    values.push(Number(trimmed));
    offset += part.length + 1;
  }
  return ok(values);
}

/**
 * Parses one line from the manager. Keywords are matched without regard to case and
 * surrounding white space (and a trailing carriage return) is ignored. Codes: `empty-line`,
 * `unknown-command`, `bad-arguments`, `bad-number`; `index` points into the line.
 */
export function parseGomocupCommand(line: string): Result<GomocupCommand> {
  const text = line.trim();
  if (text === '') return err(problem('empty-line', 'the line is empty', { index: 0 }));
  const start = line.indexOf(text);
  if (/^\d/.test(text)) {
    const n = parseNumbers(text, 3, start, 'a BOARD line');
    if (!n.ok) return n;
    return ok({ kind: 'stone', x: n.value[0], y: n.value[1], field: n.value[2] });
  }
  const space = text.search(/\s/);
  const keyword = (space < 0 ? text : text.slice(0, space)).toUpperCase();
  const rest = space < 0 ? '' : text.slice(space).trim();
  const restAt = rest === '' ? start + text.length : line.indexOf(rest, start + keyword.length);
  if (Object.hasOwn(NO_ARGUMENT, keyword)) {
    if (rest !== '') return err(problem('bad-arguments', `${keyword} takes no arguments, not "${shownInput(rest)}"`, { index: restAt }));
    return ok({ kind: NO_ARGUMENT[keyword as keyof typeof NO_ARGUMENT] });
  }
  switch (keyword) {
    case 'START': {
      const n = parseNumbers(rest, 1, restAt, 'START');
      return n.ok ? ok({ kind: 'start', size: n.value[0] }) : n;
    }
    case 'RECTSTART': {
      const n = parseNumbers(rest, 2, restAt, 'RECTSTART');
      return n.ok ? ok({ kind: 'rectstart', width: n.value[0], height: n.value[1] }) : n;
    }
    case 'TURN':
    case 'TAKEBACK': {
      const n = parseNumbers(rest, 2, restAt, keyword);
      if (!n.ok) return n;
      return ok({ kind: keyword === 'TURN' ? 'turn' : 'takeback', x: n.value[0], y: n.value[1] });
    }
    case 'INFO': {
      const m = /^(\S+)\s+(.*)$/.exec(rest);
      if (m === null) return err(problem('bad-arguments', `INFO needs a key and a value, not "${shownInput(rest)}"`, { index: restAt }));
      return ok({ kind: 'info', key: m[1].toLowerCase(), value: m[2].trim() });
    }
  }
  // Quoted as it was sent, not as it was upper-cased to be recognised.
  return err(problem('unknown-command', `unknown command "${shownInput(space < 0 ? text : text.slice(0, space))}"`, { index: start }));
}

export function makeGomocupCommand(c: GomocupCommand): string {
  switch (c.kind) {
    case 'start':
      return `START ${c.size}`;
    case 'rectstart':
      return `RECTSTART ${c.width},${c.height}`;
    case 'turn':
      return `TURN ${c.x},${c.y}`;
    case 'takeback':
      return `TAKEBACK ${c.x},${c.y}`;
    case 'stone':
      return `${c.x},${c.y},${c.field}`;
    case 'info':
      return `INFO ${c.key} ${oneLine(c.value)}`;
    default:
      return c.kind.toUpperCase();
  }
}

// ---------------------------------------------------------------------------------------
// Notation: replies (brain → manager)

export interface AboutInfo {
  readonly name: string;
  readonly version: string;
  readonly author: string;
  readonly country: string;
}

export type GomocupReply =
  | { readonly kind: 'ok' }
  | { readonly kind: 'move'; readonly x: number; readonly y: number }
  | { readonly kind: 'error'; readonly message: string }
  /** The protocol's answer to a command the brain does not know (SWAP2BOARD, say): not an error in it. */
  | { readonly kind: 'unknown'; readonly message: string }
  | { readonly kind: 'message'; readonly text: string }
  | { readonly kind: 'debug'; readonly text: string }
  /** The ABOUT line's `key="value"` pairs in the order given. */
  | { readonly kind: 'about'; readonly fields: readonly (readonly [string, string])[] };


const ABOUT_FIELD = /^\s*([A-Za-z_]+)\s*=\s*"([^"]*)"\s*(?:,|$)/;

/** Parses one line from a brain. Code `bad-reply` for anything the protocol does not allow. */
export function parseGomocupReply(line: string): Result<GomocupReply> {
  const text = line.trim();
  const m = /^(OK|ERROR|MESSAGE|DEBUG)(?:\s+(.*))?$/i.exec(text);
  if (m !== null) {
    const word = m[1].toUpperCase();
    const rest = (m[2] ?? '').trim();
    if (word === 'OK') {
      return rest === '' ? ok({ kind: 'ok' }) : err(problem('bad-reply', `OK followed by "${shownInput(rest)}"`));
    }
    if (word === 'ERROR') return ok({ kind: 'error', message: rest });
    if (word === 'UNKNOWN') return ok({ kind: 'unknown', message: rest });
    return ok(word === 'MESSAGE' ? { kind: 'message', text: rest } : { kind: 'debug', text: rest });
  }
  const move = /^(\d{1,6})\s*,\s*(\d{1,6})$/.exec(text);
  if (move !== null) return ok({ kind: 'move', x: Number(move[1]), y: Number(move[2]) });
  if (text.includes('="')) {
    const fields: [string, string][] = [];
    let rest = text;
    while (rest !== '') {
      const f = ABOUT_FIELD.exec(rest);
      if (f === null) return err(problem('bad-reply', `not an ABOUT line: "${shownInput(text)}"`));
      fields.push([f[1].toLowerCase(), f[2]]);
      rest = rest.slice(f[0].length);
    }
    return ok({ kind: 'about', fields });
  }
  return err(problem('bad-reply', text === '' ? 'an empty line' : `"${shownInput(text)}" is not a reply: expected OK, x,y, ERROR, UNKNOWN, MESSAGE or DEBUG`));
}

export function makeGomocupReply(r: GomocupReply): string {
  switch (r.kind) {
    case 'ok':
      return 'OK';
    case 'move':
      return `${r.x},${r.y}`;
    case 'error':
      return `ERROR ${oneLine(r.message)}`;
    case 'unknown':
      return `UNKNOWN ${oneLine(r.message)}`;
    case 'message':
      return `MESSAGE ${oneLine(r.text)}`;
    case 'debug':
      return `DEBUG ${oneLine(r.text)}`;
    case 'about':
      // The protocol has no escapes, so a double quote inside a value becomes a single one.
      return r.fields.map(([k, v]) => `${k}="${oneLine(v).replace(/"/g, "'")}"`).join(', ');
  }
}

// ---------------------------------------------------------------------------------------
// Positions sent with BOARD

/**
 * A game reaching the position with these stones, black first. Gomocup allows the stones of
 * a BOARD block in any order, and the order matters to us only where an earlier move would
 * already end the game: a five later made into an overline by a further stone. So the stones
 * are played in the order given where they can be, and where a stone would complete a five
 * before the last move another of that colour is tried first, backtracking when a choice
 * leads nowhere: ten stones in a row, say, are reached by filling a gap that joins two
 * threes into a seven, never through a five (a greedy order could only put off each stone
 * that completes one, and got stuck). Fails with `position-over` if every order ends early,
 * or if `GAME_FROM_STONES_TRIES` plays do not find one.
 */
export function gameFromStones(size: number, black: readonly Point[], white: readonly Point[]): Result<Game> {
  if (black.length !== white.length && black.length !== white.length + 1) {
    return err(problem('position-over', `the position cannot be reached in a game: ${black.length} black and ${white.length} white stones`));
  }
  const game = Game.create(size);
  const left = { black: black.slice(), white: white.slice() };
  let tries = 0;
  let refused: Problem | undefined;
  // Depth-first over the order of each colour's stones; almost every stone can go at once.
  const place = (remaining: number): boolean | undefined => {
    if (remaining === 0) return true;
    const queue = left[game.turn];
    for (let i = 0; i < queue.length; i++) {
      if (++tries > GAME_FROM_STONES_TRIES) return undefined;
      const p = queue[i];
      const played = game.play(p);
      if (!played.ok) {
        refused = played.error;
        return undefined;
      }
      if (played.value.kind !== 'playing' && remaining > 1) {
        game.undo();
        continue;
      }
      queue.splice(i, 1);
      const done = place(remaining - 1);
      if (done !== false) return done;
      queue.splice(i, 0, p);
      game.undo();
    }
    return false;
  };
  const found = place(black.length + white.length);
  if (found === true) return ok(game);
  if (refused !== undefined) return err(refused);
  const why = found === undefined ? `no order of its stones without an early five was found in ${GAME_FROM_STONES_TRIES} tries` : 'a five is made before every stone is down, whatever the order';
  return err(problem('position-over', `the position cannot be reached in a game: ${why}`));
}

/** The most plays `gameFromStones` tries: far more than any position needs (most take one play a stone). */
export const GAME_FROM_STONES_TRIES = 200_000;

// ---------------------------------------------------------------------------------------
// The brain's side

export interface GomocupSessionOptions {
  readonly player: MovePlayer;
  /** The ABOUT reply; the name defaults to the player's. */
  readonly about?: Partial<AboutInfo>;
}

/** Rule bit 1 of `INFO rule`: exactly five in a row wins. */
const RULE_EXACT_FIVE = 1;

interface BoardBlock {
  readonly stones: { readonly point: Point; readonly own: boolean }[];
  readonly seen: Set<Point>;
  lines: number;
  problem?: string;
}

/**
 * The brain's side of the protocol. `handle(line)` takes one line from the manager and
 * resolves to the reply lines (none for INFO, BOARD lines, END). Lines are handled one at a
 * time in the order given, even when `handle` is called again before the last call
 * resolved. A malformed or out-of-turn command gets `ERROR …` and changes nothing; a
 * failing player is replaced by the point nearest the centre with a MESSAGE saying so; the
 * session never throws. After END every line is ignored.
 */
export class GomocupSession {
  private readonly player: MovePlayer;
  private readonly about: AboutInfo;
  private current: Game | undefined;
  /** The colour of the brain's stones, fixed by BEGIN, the first TURN, or BOARD. */
  private own: Colour | undefined;
  /** Whether the player has been told `gameOver` for the current game. */
  private told = false;
  private block: BoardBlock | undefined;
  private clockInfo: { turnMs?: number; matchMs?: number; leftMs?: number } = {};
  private ruleInfo = RULE_EXACT_FIVE;
  private done = false;
  private queue: Promise<unknown> = Promise.resolve();

  constructor(options: GomocupSessionOptions) {
    this.player = options.player;
    this.about = {
      name: options.about?.name ?? options.player.name,
      version: options.about?.version ?? '0',
      author: options.about?.author ?? '',
      country: options.about?.country ?? '',
    };
  }

  /** True once END has been handled or `finish` called. */
  get ended(): boolean {
    return this.done;
  }

  /** The game as the brain knows it (a clone), or undefined before START. */
  get game(): Game | undefined {
    return this.current?.clone();
  }

  /** The colour the brain is playing, once known. */
  get ownColour(): Colour | undefined {
    return this.own;
  }

  /** The time limits stated by INFO so far. */
  get clock(): MoveClock {
    return { ...this.clockInfo };
  }

  /** The last `INFO rule` value (1, exactly five, until told otherwise). */
  get rule(): number {
    return this.ruleInfo;
  }

  handle(line: string): Promise<string[]> {
    const run = this.queue.then(() => this.step(line));
    this.queue = run.catch(() => undefined);
    return run.then(
      (replies) => replies.map(makeGomocupReply),
      (e: unknown) => [makeGomocupReply({ kind: 'error', message: `internal error: ${String(e)}` })],
    );
  }

  /** End of input: the manager went away without END. Tells the player the game is over. */
  finish(): Promise<string[]> {
    const run = this.queue.then(async () => {
      if (this.done) return [];
      this.done = true;
      return this.tellGameOver();
    });
    this.queue = run.catch(() => undefined);
    return run.then((replies) => replies.map(makeGomocupReply), () => []);
  }

  private async step(line: string): Promise<GomocupReply[]> {
    if (this.done) return [];
    const parsed = parseGomocupCommand(line);
    if (!parsed.ok && parsed.error.code === 'empty-line') return [];
    if (this.block !== undefined) return this.inBlock(parsed, line);
    // A command the brain does not know is answered UNKNOWN, as the protocol asks; a known one
    // that is malformed, ERROR.
    if (!parsed.ok && parsed.error.code === 'unknown-command') return [{ kind: 'unknown', message: parsed.error.message }];
    if (!parsed.ok) return [error(parsed.error.message)];
    const c = parsed.value;
    switch (c.kind) {
      case 'start':
        return this.start(c.size, `START ${c.size}`);
      case 'rectstart':
        if (c.width !== c.height) return [error(`RECTSTART ${c.width},${c.height}: only square boards are supported`)];
        return this.start(c.width, `RECTSTART ${c.width},${c.height}`);
      case 'restart': {
        if (this.current === undefined) return [error('RESTART before START')];
        const told = await this.tellGameOver();
        this.newGame(this.current.size);
        return [...told, { kind: 'ok' }];
      }
      case 'begin':
        return this.begin();
      case 'turn':
        return this.turn(c.x, c.y);
      case 'board':
        if (this.current === undefined) return [error('BOARD before START')];
        this.block = { stones: [], seen: new Set(), lines: 0 };
        return [];
      case 'stone':
        return [error(`"${makeGomocupCommand(c)}" outside a BOARD block`)];
      case 'done':
        return [error('DONE without BOARD')];
      case 'takeback':
        return this.takeback(c.x, c.y);
      case 'info':
        return this.info(c.key, c.value);
      case 'about':
        return [{ kind: 'about', fields: Object.entries(this.about) }];
      case 'end': {
        const told = await this.tellGameOver();
        this.done = true;
        return told;
      }
    }
  }

  private async start(size: number, what: string): Promise<GomocupReply[]> {
    if (!validSize(size)) return [error(`${what}: unsupported size, this brain plays ${MIN_SIZE}×${MIN_SIZE} to ${MAX_SIZE}×${MAX_SIZE}`)];
    const told = await this.tellGameOver();
    this.newGame(size);
    return [...told, { kind: 'ok' }];
  }

  private newGame(size: number): void {
    this.current = Game.create(size);
    this.own = undefined;
    this.told = false;
  }

  private begin(): Promise<GomocupReply[]> | GomocupReply[] {
    const game = this.current;
    if (game === undefined) return [error('BEGIN before START')];
    if (game.moves.length > 0) return [error(`BEGIN on a board with ${game.moves.length} stone${game.moves.length === 1 ? '' : 's'}: BEGIN starts an empty board`)];
    this.own = 'black';
    return this.move(game);
  }

  private turn(x: number, y: number): Promise<GomocupReply[]> | GomocupReply[] {
    const game = this.current;
    if (game === undefined) return [error('TURN before START')];
    const p = this.pointOf(game, x, y, 'TURN');
    if (typeof p === 'string') return [error(p)];
    if (game.isOver) return [error(`TURN ${x},${y}: the game is over (${describeStatus(game)})`)];
    const own = this.own ?? (game.moves.length === 0 ? 'white' : opposite(game.turn));
    if (game.turn === own) return [error(`TURN ${x},${y}: it is this brain's turn (${own}), not the opponent's`)];
    if (!game.board.isEmpty(p)) return [error(`TURN ${x},${y}: that point is already taken`)];
    game.play(p);
    this.own = own;
    if (game.isOver) return [{ kind: 'message', text: `game over: ${describeStatus(game)}` }];
    return this.move(game);
  }

  private takeback(x: number, y: number): GomocupReply[] {
    const game = this.current;
    if (game === undefined) return [error('TAKEBACK before START')];
    const p = this.pointOf(game, x, y, 'TAKEBACK');
    if (typeof p === 'string') return [error(p)];
    const last = game.moves[game.moves.length - 1];
    if (last === undefined) return [error(`TAKEBACK ${x},${y}: the board is empty`)];
    if (last !== p) {
      const l = toGomocup(game.size, last);
      return [error(`TAKEBACK ${x},${y}: the last move was ${l.x},${l.y}`)];
    }
    game.undo();
    if (game.moves.length === 0) this.own = undefined;
    return [{ kind: 'ok' }];
  }

  private info(key: string, value: string): GomocupReply[] {
    const whole = /^\d{1,12}$/.test(value) ? Number(value) : undefined;
    const needsNumber = ['timeout_turn', 'timeout_match', 'time_left', 'max_memory', 'game_type', 'rule'];
    if (needsNumber.includes(key) && whole === undefined) {
      return [error(`INFO ${shownInput(key)} needs a whole number, not "${shownInput(value)}"`)];
    }
    switch (key) {
      case 'timeout_turn':
        this.clockInfo = { ...this.clockInfo, turnMs: whole };
        break;
      case 'timeout_match':
        // 0 means no limit on the match.
        this.clockInfo = { ...this.clockInfo, matchMs: whole === 0 ? undefined : whole };
        break;
      case 'time_left':
        this.clockInfo = { ...this.clockInfo, leftMs: whole };
        break;
      case 'rule':
        this.ruleInfo = whole as number;
        if (whole !== RULE_EXACT_FIVE) {
          return [{ kind: 'message', text: `rule ${value} asked for; this brain always plays exactly five in a row with no renju restrictions, and plays on` }];
        }
        break;
    }
    // max_memory, game_type, evaluate, folder and keys we do not know change nothing.
    return [];
  }

  private inBlock(parsed: Result<GomocupCommand>, line: string): Promise<GomocupReply[]> | GomocupReply[] {
    const block = this.block as BoardBlock;
    if (parsed.ok && parsed.value.kind === 'stone') {
      block.lines++;
      if (block.problem === undefined) block.problem = this.addStone(block, parsed.value.x, parsed.value.y, parsed.value.field);
      return [];
    }
    if (parsed.ok && parsed.value.kind === 'done') {
      this.block = undefined;
      return this.boardDone(block);
    }
    // A line that is meant as a stone line but is not one (`7,a,2`, `7,8`, `-1,7,1`, `a,7,2`:
    // it starts with a digit, or is no command and holds a comma) is a bad line of the block:
    // reported once, at DONE, naming it, like a stone off the board. Anything else (PIZZA, a
    // command) ends the block there.
    const numbered = /^\d/.test(line.trim());
    if (!parsed.ok && (numbered || (parsed.error.code === 'unknown-command' && line.includes(',')))) {
      block.lines++;
      const why = numbered ? parsed.error.message : `"${shownInput(line.trim())}" is not a stone line: x,y,field, whole numbers from 0`;
      block.problem ??= `BOARD line ${block.lines}: ${why}`;
      return [];
    }
    this.block = undefined;
    if (parsed.ok && parsed.value.kind === 'end') return this.step(line);
    return [error(`BOARD not closed by DONE before "${shownInput(line.trim())}": the position and that line are ignored`)];
  }

  /** Checks one `x,y,f` line of a BOARD block; returns what is wrong with it, if anything. */
  private addStone(block: BoardBlock, x: number, y: number, field: number): string | undefined {
    const where = `BOARD line ${block.lines} (${x},${y},${field})`;
    const game = this.current as Game;
    if (field === 3) return `${where}: field 3 (the continuous-game winning line) is not supported`;
    if (field !== 1 && field !== 2) return `${where}: the field must be 1 (own stone) or 2 (opponent's)`;
    const p = this.pointOf(game, x, y, where);
    if (typeof p === 'string') return p;
    if (block.seen.has(p)) return `${where}: the point is given twice`;
    block.seen.add(p);
    block.stones.push({ point: p, own: field === 1 });
    return undefined;
  }

  private boardDone(block: BoardBlock): Promise<GomocupReply[]> | GomocupReply[] {
    if (block.problem !== undefined) return [error(`${block.problem}; the position is ignored`)];
    const size = (this.current as Game).size;
    const mine = block.stones.filter((s) => s.own).map((s) => s.point);
    const theirs = block.stones.filter((s) => !s.own).map((s) => s.point);
    let own: Colour;
    if (mine.length === theirs.length) own = 'black';
    else if (theirs.length === mine.length + 1) own = 'white';
    else return [error(`BOARD has ${mine.length} own and ${theirs.length} opponent stones: it cannot be this brain's turn`)];
    const built = own === 'black' ? gameFromStones(size, mine, theirs) : gameFromStones(size, theirs, mine);
    if (!built.ok) return [error(`BOARD: ${built.error.message}`)];
    if (built.value.isOver) return [error(`BOARD: the position is already over (${describeStatus(built.value)})`)];
    this.current = built.value;
    this.own = own;
    this.told = false;
    return this.move(built.value);
  }

  /** Our point for (x, y), or a message saying why it is off the board. */
  private pointOf(game: Game, x: number, y: number, what: string): Point | string {
    const p = fromGomocup(game.size, x, y);
    if (p === undefined) return `${what}: ${x},${y} is off the ${game.size}×${game.size} board (0 to ${game.size - 1})`;
    return p;
  }

  /** Asks the player for the side to move, plays its answer and replies with it. */
  private async move(game: Game): Promise<GomocupReply[]> {
    const notes: GomocupReply[] = [];
    let p: Point | undefined;
    try {
      const answer = await this.player.chooseMove(game.clone(), this.clock);
      const onBoard = Number.isInteger(answer) && answer >= 0 && answer < game.board.points;
      if (onBoard && game.board.isEmpty(answer)) p = answer;
      else {
        const what = onBoard ? `${makePoint(game.size, answer)}, which is taken` : `${String(answer)}, not a point`;
        notes.push({ kind: 'message', text: `${this.player.name} chose ${what}; playing the point nearest the centre` });
      }
    } catch (e) {
      notes.push({ kind: 'message', text: `${this.player.name} failed (${String(e)}); playing the point nearest the centre` });
    }
    p ??= nearestCentre(game);
    if (p === undefined) return [...notes, error('the board is full')];
    game.play(p);
    return [...notes, { kind: 'move', ...toGomocup(game.size, p) }];
  }

  /** Tells the player about the current game once, if it had any moves. */
  private async tellGameOver(): Promise<GomocupReply[]> {
    const game = this.current;
    if (game === undefined || this.told || game.moves.length === 0 || this.player.gameOver === undefined) return [];
    this.told = true;
    try {
      await this.player.gameOver(game.clone());
      return [];
    } catch (e) {
      return [{ kind: 'message', text: `${this.player.name} could not learn from the game: ${String(e)}` }];
    }
  }
}

function error(message: string): GomocupReply {
  return { kind: 'error', message };
}
