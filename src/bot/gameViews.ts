/**
 * What the service's calls take and give back: the options of a challenge, and a game as the
 * views show it after each call (views.ts draws and words them). Apart from the service
 * (service.ts) so the community service (versus.ts), which gives back the same shapes, need not
 * import it.
 */
import type { Provenance, SubgoalStats } from '../learning/library.ts';
import type { Level, MoveChoice } from '../play/player.ts';
import type { Realisation } from '../recognition/realisation.ts';
import type { Subgoal } from '../recognition/subgoal.ts';
import type { Game } from '../rules/game.ts';
import type { Colour, Point } from '../rules/types.ts';
import type { AnalysisEnd, LearnedReport } from './analyser.ts';
import type { LearnedOrigin } from './communityRecords.ts';
import type { MemberResult } from './memberStats.ts';
import type { Rated } from './ratings.ts';
import type { BoardSize, Ending, Outcome } from './gameTerms.ts';
import type { Example, StoredGame } from './records.ts';
import type { SavedLater } from './savedLater.ts';

export type ColourChoice = Colour | 'random';

export interface ChallengeOptions {
  readonly size?: BoardSize;
  readonly colour?: ColourChoice;
  readonly level?: Level;
}

/** A game as the views show it. */
export interface GameView {
  readonly stored: StoredGame;
  readonly game: Game;
  /** When the game ended here: what storage did not take at once and will be saved later (savedLater.ts). */
  readonly savedLater?: SavedLater;
}

export interface Challenged extends GameView {
  /** The bot's opening move, when it plays black. */
  readonly opening?: MoveChoice;
  /** A game that had expired was put away to make room for this one. */
  readonly replacedExpired: boolean;
}

export interface Moved extends GameView {
  readonly point: Point;
  /**
   * The longest row of the member's stones through their move, when it is six or more: an
   * overline, which does not win (only exactly five does), so the member is told why the game
   * goes on.
   */
  readonly overline?: Overline;
  /** The bot's answer, unless the member's move ended the game. */
  readonly reply?: MoveChoice;
  readonly learned: readonly LearnedReport[];
  /** When the bot lost to a five: how its analysis ended. */
  readonly analysis?: AnalysisEnd;
  /** The ratings the ended game changed (ratings.ts). */
  readonly rated?: Rated;
}

/** A row of six or more stones of one colour, in line order. */
export interface Overline {
  readonly stones: readonly Point[];
}

export interface Hinted extends GameView {
  readonly choice: MoveChoice;
  /** Where the player would consider playing, by its positional score, best first (the heat map). */
  readonly considered: readonly { readonly point: Point; readonly score: number }[];
}

export interface ThreatsView extends GameView {
  readonly black: readonly Realisation[];
  readonly white: readonly Realisation[];
}

export interface LibraryPageEntry {
  readonly subgoal: Subgoal;
  /** First of its group (node list) in the listing: printed in full, the others by pattern list. */
  readonly groupStart: boolean;
  readonly provenance?: Provenance;
  readonly stats: SubgoalStats;
  readonly example?: Example;
  /** A watched game or the shared pool; absent for the bot's own losses and the rule. */
  readonly origin?: LearnedOrigin;
  /** Learned by walking back again through its game later (reflection.ts). */
  readonly reflected?: true;
}

export interface LibraryPage {
  readonly page: number;
  readonly pages: number;
  /** Subgoals learned, not counting the rule of the game (nor the starter library's). */
  readonly learned: number;
  /** Subgoals given by the starter library (STARTER_LIBRARY), not learned; 0 without one. */
  readonly given?: number;
  readonly entries: readonly LibraryPageEntry[];
}

export interface ServerStats {
  readonly games: number;
  readonly botWon: number;
  readonly botLost: number;
  readonly draws: number;
  readonly abandoned: number;
  /** Subgoals learned, not counting the rule of the game. */
  readonly learned: number;
  /** Finished games, oldest first. */
  readonly history: readonly { readonly endedAt: number; readonly outcome: Outcome; readonly ending?: Ending }[];
  /** Games the member resigned, counted apart from `botWon` (memberStats.ts). */
  readonly resigned?: number;
  /** Each member's results, most games first (memberStats.ts). */
  readonly members?: readonly MemberResult[];
}
