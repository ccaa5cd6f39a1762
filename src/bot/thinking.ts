/**
 * What the bot works out with its player, as questions with plain answers: its turn in a game,
 * a hint, the realisations on a board. The same functions run in this thread (a service made
 * without play workers: the terminal game, most tests) and in a play worker (playWorker.ts), so
 * both give the same answers: the same library in the same order, the same seed, the same
 * calls on one player in the same order.
 */
import { Game } from '../rules/game.ts';
import type { MoveChoice, Player, PlayerConfig } from '../play/player.ts';
import { makeListing } from '../notation/listing.ts';
import type { Realisation } from '../recognition/realisation.ts';
import type { Subgoal } from '../recognition/subgoal.ts';
import type { Level } from '../play/player.ts';
import type { Colour, Point } from '../rules/types.ts';

/** A game as plain data: its size and moves, black first. */
export interface Position {
  readonly size: number;
  readonly moves: readonly Point[];
}

/** The bot's turn: the position after the member's move, and the player's level and seed for this move. */
export interface TurnQuestion extends Position {
  readonly level: Level;
  readonly seed: number;
}

export interface TurnAnswer<C = MoveChoice> {
  /** Subgoals of every realisation on the board before the bot moves, both colours. */
  readonly before: readonly string[];
  /** The bot's move, unless the game is over. */
  readonly choice?: C;
  /** Subgoals of every realisation after the bot's move (empty when it did not move). */
  readonly after: readonly string[];
}

/** /threats: the position, and the side the member plays (the picture's legend names it "you"). */
export interface SeenQuestion extends TurnQuestion {
  readonly human: Colour;
}

export interface HintQuestion extends Position {
  readonly seed: number;
}

export interface HintAnswer<C = MoveChoice> {
  readonly choice: C;
  readonly considered: readonly { readonly point: Point; readonly score: number }[];
}

export interface SeenAnswer<R = Realisation> {
  readonly black: readonly R[];
  readonly white: readonly R[];
}

export type NewPlayer = (config: PlayerConfig) => Player;

export function positionOf(p: Position): Game {
  const game = Game.create(p.size);
  for (const point of p.moves) {
    const played = game.play(point);
    if (!played.ok) throw new Error(`the game does not replay: ${played.error.message}`);
  }
  return game;
}

export function thinkTurn(newPlayer: NewPlayer, library: readonly Subgoal[], q: TurnQuestion): TurnAnswer {
  const game = positionOf(q);
  const bot = newPlayer({ library, level: q.level, seed: q.seed });
  const before = seenTexts(bot, game);
  if (game.isOver) return { before, after: [] };
  const choice = bot.choose(game);
  const played = game.play(choice.point);
  if (!played.ok) throw new Error(`the player chose an illegal move: ${played.error.message}`);
  return { before, choice, after: seenTexts(bot, game) };
}

/** A move for the member, as the full-strength bot would play it (level 5), and the heat map's scores. */
export function thinkHint(newPlayer: NewPlayer, library: readonly Subgoal[], q: HintQuestion): HintAnswer {
  const game = positionOf(q);
  const player = newPlayer({ library, level: 5, seed: q.seed });
  return { choice: player.hint(game), considered: player.positionalScores(game) };
}

export function thinkSeen(newPlayer: NewPlayer, library: readonly Subgoal[], q: TurnQuestion): SeenAnswer {
  const seen = newPlayer({ library, level: q.level, seed: q.seed }).realisations(positionOf(q));
  return { black: seen.black, white: seen.white };
}

/** A subgoal's place in the paper's listing: its text, and whether it starts a group (a node list). */
export interface ListingPlace {
  readonly text: string;
  readonly groupStart: boolean;
}

/**
 * The subgoals' texts in the order of the paper's listing (src/notation/listing.ts), each marked when it
 * starts a group. The listing prints later members of a group by pattern list only; their full
 * text is the group's node list and that pattern list. Anything the listing printed differently
 * still shows, at the end.
 */
export function listingTexts(subgoals: readonly Subgoal[]): ListingPlace[] {
  const known = new Set(subgoals.map((s) => s.text));
  const out: ListingPlace[] = [];
  const placed = new Set<string>();
  let nodeList = '';
  for (const line of makeListing(subgoals.map((s) => s.description)).split('\n')) {
    if (line.trim() === '') continue;
    const groupStart = line.startsWith('(');
    if (groupStart) nodeList = line.slice(0, line.indexOf(')') + 1);
    const text = groupStart ? line : `${nodeList} ${line.trim()}`;
    if (!known.has(text) || placed.has(text)) continue;
    placed.add(text);
    out.push({ text, groupStart });
  }
  for (const s of subgoals) if (!placed.has(s.text)) out.push({ text: s.text, groupStart: true });
  return out;
}

function seenTexts(player: Player, game: Game): string[] {
  const on = player.realisations(game);
  return [...on.black, ...on.white].map((r) => r.subgoal.text);
}
