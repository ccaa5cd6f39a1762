/**
 * Engine against engine over the Gomocup protocol, refereed by our own rules (src/rules/game.ts:
 * exactly five wins). This module is the manager's side of the protocol and the referee;
 * it talks to engines through `LineChannel`s and never starts a process itself — the edge
 * (src/cli/match.ts) supplies channels to child processes, and `sessionChannel` runs a
 * brain in-process.
 *
 * A match plays games in pairs: games 2k and 2k+1 start from opening k with the colours
 * swapped, so neither engine profits from the luck of an opening. An engine that crashes,
 * overruns its time, answers an illegal point, an ERROR or anything that is not a move
 * loses that game by forfeit, is restarted for the next game, and the match goes on.
 */
import { fromGomocup, makeGomocupCommand, makeGomocupReply, parseGomocupReply, toGomocup, type GomocupCommand, type GomocupSession } from './protocol.ts';
import { describeStatus, Game } from '../rules/game.ts';
import { makeGameRecord, recordOf } from '../rules/gameRecord.ts';
import { makePoint, onBoard, parsePoint, pointAt } from '../rules/point.ts';
import { seededRandom } from '../rules/random.ts';
import { err, ok, problem, type Problem, type Result } from '../rules/result.ts';
import { DIRECTIONS, opposite, stoneOf, type Colour, type Point } from '../rules/types.ts';
import { splitLines } from '../rules/textLines.ts';

// ---------------------------------------------------------------------------------------
// Channels

/** A line-based connection to one running engine. */
export interface LineChannel {
  /** Writes one line to the engine. Never throws: a dead engine shows in `receive`. */
  send(line: string): void;
  /** The engine's next line; fails with `timeout` or `closed` (the engine is gone). */
  receive(timeoutMs: number): Promise<Result<string>>;
  /** Forgets lines received but not yet read (late replies to an earlier command). */
  drain(): void;
  /** Stops the engine, waiting for it to go. */
  close(): Promise<void>;
}

/** Lines waiting to be read, with at most one reader waiting for the next. */
export class LineQueue {
  private readonly lines: string[] = [];
  private waiter: ((r: Result<string>) => void) | undefined;
  private closedBecause: string | undefined;

  push(line: string): void {
    if (this.closedBecause !== undefined) return;
    if (this.waiter !== undefined) this.waiter(ok(line));
    else this.lines.push(line);
  }

  /** No more lines will come; `reason` says why, for the forfeit message. */
  close(reason: string): void {
    if (this.closedBecause !== undefined) return;
    this.closedBecause = reason;
    this.waiter?.(err(problem('closed', reason)));
  }

  get closed(): boolean {
    return this.closedBecause !== undefined;
  }

  receive(timeoutMs: number): Promise<Result<string>> {
    const line = this.lines.shift();
    if (line !== undefined) return Promise.resolve(ok(line));
    if (this.closedBecause !== undefined) return Promise.resolve(err(problem('closed', this.closedBecause)));
    return new Promise((resolve) => {
      const timer = setTimeout(() => {
        this.waiter = undefined;
        resolve(err(problem('timeout', `no answer within ${Math.round(timeoutMs)} ms`)));
      }, Math.max(0, timeoutMs));
      this.waiter = (r) => {
        clearTimeout(timer);
        this.waiter = undefined;
        resolve(r);
      };
    });
  }

  drain(): void {
    this.lines.length = 0;
  }
}

/**
 * A brain running in this process: each line sent is handled by `session` and its replies
 * queued to be received, exactly as from a child process but without one.
 */
export function sessionChannel(session: GomocupSession): LineChannel {
  const queue = new LineQueue();
  let pending: Promise<void> = Promise.resolve();
  return {
    send(line) {
      pending = session.handle(line).then((replies) => {
        for (const r of replies) queue.push(r);
        if (session.ended) queue.close('the brain ended');
      });
    },
    receive: (timeoutMs) => queue.receive(timeoutMs),
    drain: () => queue.drain(),
    async close() {
      if (!session.ended) await session.finish();
      await pending;
      queue.close('closed');
    },
  };
}

// ---------------------------------------------------------------------------------------
// Engines, seen from the manager

/** How to start an engine: a name for tables and records, and a fresh connection. */
export interface EngineSpec {
  readonly name: string;
  connect(): LineChannel;
}

/**
 * Why an engine lost a game without a five. Codes: `start-failed` (START/RESTART not
 * answered OK), `timeout`, `crash` (its output closed), `engine-error` (it answered
 * ERROR), `garbage` (an answer that is no move), `illegal-move` (off the board or taken).
 */
export type Forfeit = Problem;

interface EngineLimits {
  readonly timeoutMs: number;
  readonly startTimeoutMs: number;
  readonly now: () => number;
}

/** The manager's side of the protocol for one engine, across the games of a match. */
class EngineClient {
  private channel: LineChannel | undefined;
  private size: number | undefined;
  /** Moves of the current game the engine knows: told by TURN/BOARD or played itself. */
  private known = 0;

  constructor(
    readonly spec: EngineSpec,
    private readonly limits: EngineLimits,
  ) {}

  /** Gets the engine ready for a new empty game: START the first time, RESTART after. */
  async newGame(size: number): Promise<Result<void>> {
    this.known = 0;
    let sent: GomocupCommand = { kind: 'start', size };
    if (this.channel !== undefined && this.size === size) sent = { kind: 'restart' };
    this.channel ??= this.spec.connect();
    this.size = size;
    let answer = await this.command(sent, this.limits.startTimeoutMs);
    if (sent.kind === 'restart' && answer.ok && (answer.value.kind === 'error' || answer.value.kind === 'unknown')) {
      // Brains older than RESTART answer UNKNOWN (or ERROR) to it; START does the same.
      sent = { kind: 'start', size };
      answer = await this.command(sent, this.limits.startTimeoutMs);
    }
    const what = makeGomocupCommand(sent);
    if (!answer.ok) return err(problem(answer.error.code, `${what}: ${answer.error.message}`));
    if (answer.value.kind !== 'ok') return err(problem('start-failed', `${what}: answered "${showReply(answer.value)}", not OK`));
    const infos: [string, number][] = [
      ['timeout_turn', this.limits.timeoutMs],
      ['timeout_match', 0],
      ['max_memory', 0],
      ['game_type', 1],
      ['rule', 1],
    ];
    for (const [key, value] of infos) this.send({ kind: 'info', key, value: String(value) });
    return ok(undefined);
  }

  /** Asks the engine for the side to move in `game`; checks the answer and its time. */
  async requestMove(game: Game): Promise<Result<{ point: Point; ms: number }>> {
    const size = game.size;
    const moves = game.moves;
    const n = moves.length;
    const started = this.limits.now();
    let answer: Result<Reply>;
    if (n === 0) {
      answer = await this.command({ kind: 'begin' }, this.limits.timeoutMs);
    } else if (this.known === n - 1) {
      answer = await this.command({ kind: 'turn', ...toGomocup(size, moves[n - 1]) }, this.limits.timeoutMs);
    } else {
      // The engine has missed more than the last move (an opening, or it was restarted):
      // send the whole position, in the order it was played.
      this.send({ kind: 'board' });
      moves.forEach((p, i) => {
        const mover: Colour = i % 2 === 0 ? 'black' : 'white';
        this.send({ kind: 'stone', ...toGomocup(size, p), field: mover === game.turn ? 1 : 2 });
      });
      answer = await this.command({ kind: 'done' }, this.limits.timeoutMs);
    }
    const ms = this.limits.now() - started;
    if (!answer.ok) return answer;
    const a = answer.value;
    if (a.kind === 'error' || a.kind === 'unknown') return err(problem('engine-error', `answered ${a.kind.toUpperCase()} ${a.message}`));
    if (a.kind !== 'move') return err(problem('garbage', `answered "${showReply(a)}" instead of a move`));
    if (ms > this.limits.timeoutMs) {
      return err(problem('timeout', `took ${Math.round(ms)} ms, more than ${this.limits.timeoutMs} ms`));
    }
    const p = fromGomocup(size, a.x, a.y);
    if (p === undefined) return err(problem('illegal-move', `played ${a.x},${a.y}, off the ${size}×${size} board`));
    if (!game.board.isEmpty(p)) return err(problem('illegal-move', `played ${a.x},${a.y} (${makePoint(size, p)}), which is already taken`));
    this.known = n + 1;
    return ok({ point: p, ms });
  }

  /** Stops the engine after a forfeit; the next game starts a fresh one. */
  async reset(): Promise<void> {
    const channel = this.channel;
    this.channel = undefined;
    await channel?.close();
  }

  /** Sends END and stops the engine. */
  async end(): Promise<void> {
    this.send({ kind: 'end' });
    await this.reset();
  }

  private send(c: GomocupCommand): void {
    this.channel?.send(makeGomocupCommand(c));
  }

  /**
   * Sends a command and waits for its answer, skipping MESSAGE and DEBUG lines, within one
   * deadline for them all.
   */
  private async command(c: GomocupCommand, timeoutMs: number): Promise<Result<Reply>> {
    const channel = this.channel;
    if (channel === undefined) return err(problem('crash', 'the engine is not running'));
    channel.drain();
    channel.send(makeGomocupCommand(c));
    const deadline = this.limits.now() + timeoutMs;
    for (;;) {
      const line = await channel.receive(deadline - this.limits.now());
      if (!line.ok) {
        const code = line.error.code === 'timeout' ? 'timeout' : 'crash';
        return err(problem(code, line.error.code === 'timeout' ? line.error.message : `the engine stopped: ${line.error.message}`));
      }
      const reply = parseGomocupReply(line.value);
      if (!reply.ok) return ok({ kind: 'other', line: line.value.trim() });
      const r = reply.value;
      if (r.kind === 'message' || r.kind === 'debug') continue;
      if (r.kind === 'ok' || r.kind === 'error' || r.kind === 'unknown' || r.kind === 'move') return ok(r);
      return ok({ kind: 'other', line: line.value.trim() });
    }
  }
}

type Reply =
  | { readonly kind: 'ok' }
  | { readonly kind: 'error'; readonly message: string }
  | { readonly kind: 'unknown'; readonly message: string }
  | { readonly kind: 'move'; readonly x: number; readonly y: number }
  | { readonly kind: 'other'; readonly line: string };

function showReply(r: Reply): string {
  if (r.kind === 'other') return r.line;
  return makeGomocupReply(r);
}

// ---------------------------------------------------------------------------------------
// Openings

/** The first moves of a game, black first, placed before the engines are asked. */
export type Opening = readonly Point[];

/**
 * An openings file: one opening a line, its moves in point notation black first (`h8 i9
 * g7`); blank lines and lines starting with `#` are skipped. Each opening must be playable
 * on the board and must not finish the game. Problems carry the line and column.
 */
export function parseOpenings(text: string, size: number): Result<Opening[]> {
  const openings: Opening[] = [];
  const lines = splitLines(text);
  for (let i = 0; i < lines.length; i++) {
    const raw = lines[i];
    const trimmed = raw.trim();
    if (trimmed === '' || trimmed.startsWith('#')) continue;
    const game = Game.create(size);
    const token = /\S+/g;
    for (let m = token.exec(raw); m !== null; m = token.exec(raw)) {
      const where = { line: i + 1, column: m.index + 1 };
      const p = parsePoint(size, m[0]);
      if (!p.ok) return err({ ...p.error, ...where });
      const played = game.play(p.value);
      if (!played.ok) return err({ ...played.error, ...where });
      if (game.isOver) return err(problem('opening-over', `the opening ends the game: ${describeStatus(game)}`, where));
    }
    openings.push(game.moves.slice());
  }
  if (openings.length === 0) return err(problem('no-openings', 'the file holds no opening'));
  return ok(openings);
}

export function makeOpenings(openings: readonly Opening[], size: number): string {
  return openings.map((o) => `${o.map((p) => makePoint(size, p)).join(' ')}\n`).join('');
}

/**
 * Whether `colour` has an open three or a four — a simple check, ours, used only to keep
 * generated openings balanced. An open three is six points in a row whose two ends are
 * empty and whose middle four hold three stones of the colour and one empty point
 * (`.XXX..`, `.XX.X.`): one move makes it an open four. A four is five points in a row
 * holding four of the colour and one empty point. Overlines are not considered.
 */
export function hasOpenThreeOrFour(game: Game, colour: Colour): boolean {
  const size = game.size;
  const own = stoneOf(colour);
  const other = stoneOf(opposite(colour));
  for (let row = 0; row < size; row++) {
    for (let col = 0; col < size; col++) {
      for (const [dc, dr] of DIRECTIONS) {
        const cells: number[] = [];
        for (let k = 0; k < 6 && onBoard(size, col + k * dc, row + k * dr); k++) {
          cells.push(game.board.get(pointAt(size, col + k * dc, row + k * dr)));
        }
        if (cells.length >= 5) {
          const five = cells.slice(0, 5);
          if (!five.includes(other) && five.filter((c) => c === own).length === 4) return true;
        }
        if (cells.length === 6 && cells[0] === 0 && cells[5] === 0) {
          const middle = cells.slice(1, 5);
          if (!middle.includes(other) && middle.filter((c) => c === own).length === 3) return true;
        }
      }
    }
  }
  return false;
}

/**
 * `count` different balanced openings for a board of this size, from `seed`. Each has 3 to
 * 5 stones placed alternately, black first, on random empty points within 3 lines of the
 * centre (fewer on small boards); an opening where either side already has an open three
 * or a four (`hasOpenThreeOrFour`) is thrown away. Why: on 19×19 black with a free opening
 * nearly always wins, and identical engines from an empty board play the same game every
 * time. Gives fewer than `count` only when the centre cannot hold that many.
 */
export function generateOpenings(seed: number, count: number, size: number): Opening[] {
  const rnd = seededRandom(seed);
  const centre = Math.floor((size - 1) / 2);
  const radius = Math.min(3, centre);
  const area: Point[] = [];
  for (let row = centre - radius; row <= centre + radius; row++) {
    for (let col = centre - radius; col <= centre + radius; col++) area.push(pointAt(size, col, row));
  }
  const seen = new Set<string>();
  const openings: Opening[] = [];
  for (let attempt = 0; openings.length < count && attempt < count * 1000; attempt++) {
    const game = Game.create(size);
    const stones = 3 + rnd.int(3);
    while (game.moves.length < stones) game.play(rnd.pick(area.filter((p) => game.board.isEmpty(p))));
    if (hasOpenThreeOrFour(game, 'black') || hasOpenThreeOrFour(game, 'white')) continue;
    const key = game.moves.join(' ');
    if (seen.has(key)) continue;
    seen.add(key);
    openings.push(game.moves.slice());
  }
  return openings;
}

// ---------------------------------------------------------------------------------------
// The match

export interface MatchOptions {
  readonly size: number;
  readonly games: number;
  /** Opening k starts games 2k and 2k+1; the list is cycled. Empty: every game starts empty. */
  readonly openings: readonly Opening[];
  /** The longest an engine may take over one move (ms). */
  readonly timeoutMs: number;
  /** The longest an engine may take to start and answer START (ms); 15 000 by default. */
  readonly startTimeoutMs?: number;
  /** The clock, in ms; `performance.now` by default. */
  readonly now?: () => number;
  /** Called after each game, for progress reports. */
  readonly onGame?: (outcome: GameOutcome) => void;
}

export interface GameOutcome {
  /** 0-based. */
  readonly index: number;
  readonly black: string;
  readonly white: string;
  readonly opening: Opening;
  /** Every move played, the opening's first. A forfeited move is not in it. */
  readonly game: Game;
  /** Undefined for a draw. */
  readonly winner: Colour | undefined;
  readonly how: 'five' | 'draw' | 'forfeit';
  /** Why the loser forfeited, when `how` is `forfeit`. */
  readonly forfeit?: Forfeit;
  /** Milliseconds each engine took over each of its moves (not the opening's). */
  readonly moveMs: { readonly black: readonly number[]; readonly white: readonly number[] };
}

export interface EngineStanding {
  readonly name: string;
  readonly games: number;
  readonly wins: number;
  readonly losses: number;
  readonly draws: number;
  readonly forfeits: number;
  /** (wins + draws / 2) / games, as a percentage. */
  readonly scorePercent: number;
  /** Mean number of moves in its games, opening stones included. */
  readonly meanLength: number;
  readonly meanMs: number;
  readonly maxMs: number;
}

export interface MatchReport {
  readonly size: number;
  readonly outcomes: readonly GameOutcome[];
  readonly standings: readonly EngineStanding[];
}

/** Plays `options.games` games between `a` (black in even games) and `b`. */
export async function playMatch(a: EngineSpec, b: EngineSpec, options: MatchOptions): Promise<MatchReport> {
  const now = options.now ?? (() => performance.now());
  const limits: EngineLimits = { timeoutMs: options.timeoutMs, startTimeoutMs: options.startTimeoutMs ?? 15_000, now };
  const names = a.name === b.name ? [`${a.name} #1`, `${b.name} #2`] : [a.name, b.name];
  const clients = [new EngineClient(a, limits), new EngineClient(b, limits)];
  const outcomes: GameOutcome[] = [];
  try {
    for (let index = 0; index < options.games; index++) {
      const blackIndex = index % 2;
      const opening = options.openings.length === 0 ? [] : options.openings[Math.floor(index / 2) % options.openings.length];
      const outcome = await playGame(index, opening, options.size, {
        black: { client: clients[blackIndex], name: names[blackIndex] },
        white: { client: clients[1 - blackIndex], name: names[1 - blackIndex] },
      });
      outcomes.push(outcome);
      options.onGame?.(outcome);
    }
  } finally {
    await Promise.all(clients.map((c) => c.end()));
  }
  return { size: options.size, outcomes, standings: names.map((name) => standing(name, outcomes)) };
}

type Seats = Readonly<Record<Colour, { readonly client: EngineClient; readonly name: string }>>;

async function playGame(index: number, opening: Opening, size: number, seats: Seats): Promise<GameOutcome> {
  const game = Game.create(size);
  for (const p of opening) game.play(p);
  const moveMs: Record<Colour, number[]> = { black: [], white: [] };
  const outcome = (winner: Colour | undefined, how: GameOutcome['how'], forfeit?: Forfeit): GameOutcome => ({
    index,
    black: seats.black.name,
    white: seats.white.name,
    opening,
    game,
    winner,
    how,
    ...(forfeit !== undefined ? { forfeit } : {}),
    moveMs,
  });
  const forfeit = async (loser: Colour, why: Forfeit): Promise<GameOutcome> => {
    await seats[loser].client.reset();
    return outcome(opposite(loser), 'forfeit', why);
  };
  for (const colour of ['black', 'white'] as const) {
    const started = await seats[colour].client.newGame(size);
    if (!started.ok) return forfeit(colour, started.error);
  }
  while (!game.isOver) {
    const colour = game.turn;
    const answer = await seats[colour].client.requestMove(game);
    if (!answer.ok) return forfeit(colour, answer.error);
    moveMs[colour].push(answer.value.ms);
    game.play(answer.value.point);
  }
  const status = game.status;
  return status.kind === 'won' ? outcome(status.winner, 'five') : outcome(undefined, 'draw');
}

function standing(name: string, outcomes: readonly GameOutcome[]): EngineStanding {
  let games = 0;
  let wins = 0;
  let losses = 0;
  let draws = 0;
  let forfeits = 0;
  let length = 0;
  const times: number[] = [];
  for (const o of outcomes) {
    const colour: Colour | undefined = o.black === name ? 'black' : o.white === name ? 'white' : undefined;
    if (colour === undefined) continue;
    games++;
    length += o.game.moves.length;
    times.push(...o.moveMs[colour]);
    if (o.winner === undefined) draws++;
    else if (o.winner === colour) wins++;
    else {
      losses++;
      if (o.how === 'forfeit') forfeits++;
    }
  }
  return {
    name,
    games,
    wins,
    losses,
    draws,
    forfeits,
    scorePercent: games === 0 ? 0 : (100 * (wins + draws / 2)) / games,
    meanLength: games === 0 ? 0 : length / games,
    meanMs: times.length === 0 ? 0 : times.reduce((s, t) => s + t, 0) / times.length,
    maxMs: times.length === 0 ? 0 : Math.max(...times),
  };
}

// ---------------------------------------------------------------------------------------
// Printing results

/** "black wins with five at …", "draw: …" or "white wins: black forfeits (timeout): …". */
export function describeOutcome(o: GameOutcome): string {
  if (o.how === 'forfeit' && o.winner !== undefined && o.forfeit !== undefined) {
    const loser = opposite(o.winner);
    return `${o.winner} wins: ${loser} forfeits (${o.forfeit.code}): ${o.forfeit.message}`;
  }
  return describeStatus(o.game);
}

/** The game record of one game, with comments naming the engines, opening and result. */
export function makeOutcomeRecord(o: GameOutcome, games: number): string {
  const size = o.game.size;
  const opening = o.opening.length === 0 ? 'none' : `${o.opening.map((p) => makePoint(size, p)).join(' ')} (${o.opening.length} stones)`;
  return makeGameRecord(
    recordOf(o.game, [`game ${o.index + 1} of ${games}`, `black: ${o.black}`, `white: ${o.white}`, `opening: ${opening}`, `result: ${describeOutcome(o)}`]),
  );
}

function cell(text: string): string {
  return text.replace(/\|/g, '\\|');
}

/** The results as Markdown: a table per engine, then one row per game. */
export function makeResultsTable(report: MatchReport): string {
  const fixed = (x: number, digits: number) => x.toFixed(digits);
  const out = [
    `## Results (${report.outcomes.length} games on ${report.size}×${report.size})`,
    '',
    '| engine | games | wins | losses | draws | score % | mean length | mean ms/move | max ms/move | forfeits |',
    '| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |',
  ];
  for (const s of report.standings) {
    out.push(
      `| ${cell(s.name)} | ${s.games} | ${s.wins} | ${s.losses} | ${s.draws} | ${fixed(s.scorePercent, 1)} | ${fixed(s.meanLength, 1)} | ${fixed(s.meanMs, 2)} | ${fixed(s.maxMs, 2)} | ${s.forfeits} |`,
    );
  }
  out.push('', '| game | black | white | moves | result |', '| ---: | --- | --- | ---: | --- |');
  for (const o of report.outcomes) {
    out.push(`| ${o.index + 1} | ${cell(o.black)} | ${cell(o.white)} | ${o.game.moves.length} | ${cell(describeOutcome(o))} |`);
  }
  return `${out.join('\n')}\n`;
}
