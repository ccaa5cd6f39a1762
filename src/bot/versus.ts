/**
 * Games between members, with the bot as referee, board and memory (issue 28); and finding a
 * member's game when they may have several in a channel.
 *
 * ## Invitations
 *
 * `/challenge opponent:@member` makes an invitation: who asked, whom, the board size, the
 * colours (a random colour is drawn at once, so the invitation says who plays black) and when
 * it expires (`INVITATION_MS`, 10 minutes: Discord lets the bot edit its message for 15). It is
 * not stored: it travels in the custom ids of its Accept and Decline buttons
 * (`makeInvitationId`), which only the bot can make, so it survives a restart with nothing to
 * clean up. Only the member invited can accept; either of the two can decline (for the
 * challenger, a withdrawal). An invitation pressed after it expired says so.
 *
 * ## Games
 *
 * - One game per pair of members per channel (`versusKey`), whoever asked; a member may play
 *   several members in one channel, and the bot besides.
 * - The bot referees with the same rules as its own games: exactly five wins, six or more does
 *   not (`overlineThrough`), a full board is a draw; black moves first.
 * - Stored, serialised, expired and resumed with the machinery of games against the bot: the
 *   same storage (the `versus` collection), the same per-key lock (a game's moves one at a
 *   time), the same idle limit and tombstones (`tombstones::<channel>.<a>.<b>`), and the same
 *   sweep. A restart carries on where the game was saved: after every move, before the reply.
 * - An expired game is a loss on time for the side to move once both sides have moved; before
 *   that it is abandoned (ratings.ts says why).
 * - When a game ends in a five and the server watches (`/memory watch`, on by default), the bot
 *   walks back through it exactly as after its own loss — the same analysis, in the same
 *   worker pool, with the server's library — and adds the winner's subgoals to the library
 *   with the game, the move and both players (`origin`). The walk is done before the reply, so
 *   the result message says what was learned.
 *
 * ## Which game
 *
 * `/move`, `/board` and `/resign` take an optional `against` (a member, or the bot). Without
 * it: the member's one game being played in the channel, whichever kind; with several, they
 * are asked to say which (`several-games`); with none, the one that ended last (so /board shows
 * how it ended), else the game against the bot (which says there is none, or that it expired).
 * A move is judged against the moment it arrived (claims.ts).
 */
import type { Game } from '../rules/game.ts';
import { makePoint, parsePoint } from '../rules/point.ts';
import { shownInput } from '../rules/result.ts';
import type { Colour, Point } from '../rules/types.ts';
import { MoveClaims } from './claims.ts';
import { opponentOf, playerOf, versusKey, type VersusGame, type VersusResult } from './communityRecords.ts';
import type { ServiceKit } from './kit.ts';
import { errorText } from './log.ts';
import type { SharedPool } from './pool.ts';
import { done, refuse, type BotResult } from './problems.ts';
import type { Rated, Ratings } from './ratings.ts';
import type { BoardSize, Ending } from './gameTerms.ts';
import { gameKey, gameOf, TOMBSTONE_MS, type Tombstone } from './records.ts';
import { foldOldMemberGames } from './recordSummary.ts';
import { overlineThrough, suggestions } from './movePoints.ts';
import type { ColourChoice, GameView, Moved, Overline } from './gameViews.ts';
import type { AnalysisEnd, LearnedReport } from './analyser.ts';
import type { Seat } from './store.ts';

/** How long an invitation may wait for an answer. */
export const INVITATION_MS = 10 * 60 * 1000;

/** Which of a member's games a command is for: the one against the bot, or against a member. */
export type Against = { readonly kind: 'bot' } | { readonly kind: 'member'; readonly id: string };

export interface Invitation {
  readonly channelId: string;
  /** Who challenged. */
  readonly from: string;
  /** Who is invited. */
  readonly to: string;
  readonly size: BoardSize;
  /** The challenger's colour. */
  readonly fromColour: Colour;
  readonly expiresAt: number;
}

export interface VersusView {
  readonly stored: VersusGame;
  readonly game: Game;
}

export interface VersusMoved extends VersusView {
  readonly point: Point;
  readonly mover: string;
  /** A row of six or more through the move: it does not win. */
  readonly overline?: Overline;
  readonly learned: readonly LearnedReport[];
  /** When the game ended in a five and the server watches: how the walk back ended. */
  readonly analysis?: AnalysisEnd;
  /** Whether the server was watching when the game ended in a five. */
  readonly watching: boolean;
  readonly rated?: Rated;
}

export interface VersusResigned extends VersusView {
  readonly rated?: Rated;
}

export type Played = { readonly kind: 'bot'; readonly moved: Moved } | { readonly kind: 'versus'; readonly moved: VersusMoved };
export type Shown = { readonly kind: 'bot'; readonly view: GameView } | { readonly kind: 'versus'; readonly view: VersusView };
export type Resigned = { readonly kind: 'bot'; readonly view: GameView & { readonly rated?: Rated } } | { readonly kind: 'versus'; readonly view: VersusResigned };

type Target = { readonly kind: 'bot' } | { readonly kind: 'versus'; readonly key: string; readonly opponent: string };

export interface InviteOptions {
  readonly size?: BoardSize;
  readonly colour?: ColourChoice;
}

// ---------------------------------------------------------------------------------------------
// An invitation in a button's custom id: challenge:<accept|decline>:<from>:<to>:<size>:<b|w>:<expiry, base 36>

export type InvitationAction = 'accept' | 'decline';

export function makeInvitationId(action: InvitationAction, inv: Invitation): string {
  return ['challenge', action, inv.from, inv.to, String(inv.size), inv.fromColour === 'black' ? 'b' : 'w', inv.expiresAt.toString(36)].join(':');
}

const MEMBER_ID = /^[A-Za-z0-9_-]{1,32}$/;

/** The invitation a button's custom id carries, in the channel the button is in; undefined when it is not one. */
export function parseInvitationId(customId: string, channelId: string): { action: InvitationAction; invitation: Invitation } | undefined {
  const parts = customId.split(':');
  if (parts.length !== 7 || parts[0] !== 'challenge') return undefined;
  const [, action, from, to, size, colour, expiry] = parts;
  if (action !== 'accept' && action !== 'decline') return undefined;
  if (!MEMBER_ID.test(from) || !MEMBER_ID.test(to) || from === to) return undefined;
  if (size !== '15' && size !== '19') return undefined;
  if (colour !== 'b' && colour !== 'w') return undefined;
  if (!/^[0-9a-z]{1,12}$/.test(expiry)) return undefined;
  return { action, invitation: { channelId, from, to, size: Number(size) as BoardSize, fromColour: colour === 'b' ? 'black' : 'white', expiresAt: parseInt(expiry, 36) } };
}

/**
 * What the community service asks of the bot's own (service.ts `GameService`), for a member
 * whose game here is against the bot. Said here rather than imported, so the bot's service,
 * which builds this one, is not imported back.
 */
export interface BotGames {
  move(seat: Seat, pointText: string): Promise<BotResult<Moved>>;
  board(seat: Seat): Promise<BotResult<GameView>>;
  resign(seat: Seat): Promise<BotResult<GameView & { readonly rated?: Rated }>>;
  suggestPoints(seat: Seat, typed: string): Promise<string[]>;
}

// ---------------------------------------------------------------------------------------------

export class VersusService {
  readonly invitationMs: number;
  readonly #kit: ServiceKit;
  readonly #bot: BotGames;
  readonly #ratings: Ratings;
  readonly #pool: SharedPool;
  readonly #claims = new MoveClaims();

  constructor(kit: ServiceKit, bot: BotGames, ratings: Ratings, pool: SharedPool, invitationMs = INVITATION_MS) {
    this.#kit = kit;
    this.#bot = bot;
    this.#ratings = ratings;
    this.#pool = pool;
    this.invitationMs = invitationMs;
  }

  // -------------------------------------------------------------------------------------------
  // Invitations

  /** An invitation from the member to `opponent`, unless the two already have a game being played here. */
  invite(seat: Seat, opponent: string, options: InviteOptions = {}): Promise<BotResult<Invitation>> {
    if (opponent === seat.userId) return Promise.resolve(refuse({ code: 'versus-self' }));
    return this.#kit.guarded(async () => {
      const existing = await this.#kit.store.guild(seat.guildId).versus.get(versusKey(seat.channelId, seat.userId, opponent));
      if (existing !== undefined && existing.finished === undefined && !this.#isIdle(existing)) return refuse({ code: 'versus-exists', opponent });
      const colour = options.colour ?? 'black';
      const fromColour: Colour = colour === 'random' ? (this.#kit.random() < 0.5 ? 'black' : 'white') : colour;
      return done({ channelId: seat.channelId, from: seat.userId, to: opponent, size: options.size ?? 19, fromColour, expiresAt: this.#kit.now() + this.invitationMs });
    });
  }

  /** The invited member accepts: the game starts, black to move. */
  accept(seat: Seat, inv: Invitation): Promise<BotResult<VersusView>> {
    if (seat.userId !== inv.to) return Promise.resolve(refuse({ code: 'not-your-invitation', to: inv.to }));
    if (this.#kit.now() > inv.expiresAt) return Promise.resolve(refuse({ code: 'invitation-expired', from: inv.from, to: inv.to }));
    const key = versusKey(inv.channelId, inv.from, inv.to);
    return this.#kit.guarded(() =>
      this.#kit.lock.run(key, async () => {
        const memory = this.#kit.store.guild(seat.guildId);
        const existing = await memory.versus.get(key);
        if (existing !== undefined && existing.finished === undefined) {
          if (!this.#isIdle(existing)) return refuse({ code: 'versus-exists', opponent: inv.from });
          await this.#expire(seat.guildId, existing);
        }
        const now = this.#kit.now();
        const [black, white] = inv.fromColour === 'black' ? [inv.from, inv.to] : [inv.to, inv.from];
        const stored: VersusGame = { id: this.#kit.newId(now), channelId: inv.channelId, size: inv.size, black, white, moves: [], startedAt: now, updatedAt: now };
        await memory.versus.put(key, stored);
        await memory.tombstones.delete(key);
        this.#kit.log.info('game between members started', { guildId: seat.guildId, game: stored.id, size: stored.size });
        return done({ stored, game: gameOf(stored) });
      }),
    );
  }

  /** Either member declines (the challenger: withdraws). Nothing is stored, so nothing changes. */
  decline(seat: Seat, inv: Invitation): BotResult<{ readonly invitation: Invitation; readonly by: string }> {
    if (seat.userId !== inv.to && seat.userId !== inv.from) return refuse({ code: 'not-your-invitation', to: inv.to });
    return done({ invitation: inv, by: seat.userId });
  }

  // -------------------------------------------------------------------------------------------
  // Playing

  /** The member's move in their game here (against the bot or a member; see "Which game"). */
  move(seat: Seat, pointText: string, against?: Against): Promise<BotResult<Played>> {
    // Taken before anything is awaited: the move is judged against the moment it arrived.
    const claim = this.#claims.arrive(`${seat.guildId}:${seat.channelId}`, seat.userId);
    return this.#kit.guarded(async (): Promise<BotResult<Played>> => {
      try {
        const { found, crossed } = await this.#claims.find(
          claim,
          () => this.#find(seat, against),
          (t) => (!t.ok ? undefined : t.value.kind === 'bot' ? `bot:${gameKey(seat.channelId, seat.userId)}` : `versus:${t.value.key}`),
        );
        if (!found.ok) return found;
        if (crossed !== undefined) return refuse(crossed.who === seat.userId ? { code: 'game-moved-on' } : { code: 'versus-moved-on', opponent: crossed.who });
        const target = found.value;
        if (target.kind === 'bot') {
          const moved = await this.#bot.move(seat, pointText);
          return moved.ok ? done({ kind: 'bot', moved: moved.value }) : moved;
        }
        const moved = await this.#move(seat, target, pointText);
        return moved.ok ? done({ kind: 'versus', moved: moved.value }) : moved;
      } finally {
        this.#claims.finish(claim);
      }
    });
  }

  /** The member's game here, being played or ended. */
  board(seat: Seat, against?: Against): Promise<BotResult<Shown>> {
    return this.#kit.guarded(async (): Promise<BotResult<Shown>> => {
      const found = await this.#find(seat, against);
      if (!found.ok) return found;
      if (found.value.kind === 'bot') {
        const view = await this.#bot.board(seat);
        return view.ok ? done({ kind: 'bot', view: view.value }) : view;
      }
      const stored = await this.#current(seat.guildId, found.value);
      return stored.ok ? done({ kind: 'versus', view: { stored: stored.value, game: gameOf(stored.value) } }) : stored;
    });
  }

  /** The member gives up their game here; against a member, the opponent wins. */
  resign(seat: Seat, against?: Against): Promise<BotResult<Resigned>> {
    return this.#kit.guarded(async (): Promise<BotResult<Resigned>> => {
      const found = await this.#find(seat, against);
      if (!found.ok) return found;
      const target = found.value;
      if (target.kind === 'bot') {
        const view = await this.#bot.resign(seat);
        return view.ok ? done({ kind: 'bot', view: view.value }) : view;
      }
      return this.#kit.lock.run(target.key, async (): Promise<BotResult<Resigned>> => {
        const current = await this.#current(seat.guildId, target);
        if (!current.ok) return current;
        const stored = current.value;
        if (stored.finished !== undefined) return refuse(overProblem(stored));
        const result: VersusResult = stored.black === seat.userId ? 'white-won' : 'black-won';
        const ended = await this.#finish(seat.guildId, { ...stored, updatedAt: this.#kit.now() }, gameOf(stored), result, 'resigned', seat.userId);
        return done({ kind: 'versus', view: { stored: ended.stored, game: gameOf(ended.stored), ...(ended.rated !== undefined ? { rated: ended.rated } : {}) } });
      });
    });
  }

  /** Autocomplete for /move in whichever game it would be for. Never fails. */
  async suggestPoints(seat: Seat, typed: string, against?: Against): Promise<string[]> {
    try {
      const found = await this.#find(seat, against);
      if (!found.ok) return [];
      if (found.value.kind === 'bot') return await this.#bot.suggestPoints(seat, typed);
      const stored = await this.#kit.store.guild(seat.guildId).versus.get(found.value.key);
      if (stored === undefined || stored.finished !== undefined) return [];
      return suggestions(gameOf(stored), typed);
    } catch (e) {
      this.#kit.log.debug('autocomplete found no game', { error: errorText(e) });
      return [];
    }
  }

  /** Puts away this server's games between members idle for longer than the limit; returns how many expired. */
  async expireIdle(guildId: string): Promise<number> {
    const versus = this.#kit.store.guild(guildId).versus;
    let expired = 0;
    for (const { key, value } of await versus.list()) {
      if (!this.#isIdle(value)) continue;
      const gone = await this.#kit.lock.run(key, async () => {
        const now = await versus.get(key);
        if (now === undefined || now.id !== value.id || !this.#isIdle(now)) return false;
        if (now.finished !== undefined) {
          await versus.delete(key);
          return false;
        }
        await this.#expire(guildId, now);
        return true;
      });
      if (gone) expired++;
    }
    return expired;
  }

  // -------------------------------------------------------------------------------------------
  // Inside

  async #move(seat: Seat, target: Target & { kind: 'versus' }, pointText: string): Promise<BotResult<VersusMoved>> {
    return this.#kit.lock.run(target.key, async (): Promise<BotResult<VersusMoved>> => {
      const current = await this.#current(seat.guildId, target);
      if (!current.ok) return current;
      let stored = current.value;
      if (stored.finished !== undefined) return refuse(overProblem(stored));
      const game = gameOf(stored);
      const mover = playerOf(stored, game.turn);
      if (mover !== seat.userId) return refuse({ code: 'versus-not-your-turn', opponent: mover });
      const point = parsePoint(stored.size, pointText);
      if (!point.ok) {
        const code = point.error.code === 'point-off-board' ? 'point-off-board' : 'bad-point';
        return refuse({ code, text: shownInput(pointText.trim(), 40), size: stored.size });
      }
      if (!game.board.isEmpty(point.value)) return refuse({ code: 'occupied', point: makePoint(stored.size, point.value) });
      game.play(point.value);
      const overline = overlineThrough(game.board, point.value);
      stored = { ...stored, moves: game.moves.slice(), updatedAt: this.#kit.now() };
      const base = { game, point: point.value, mover, ...(overline !== undefined ? { overline } : {}) };
      if (!game.isOver) {
        await this.#kit.store.guild(seat.guildId).versus.put(target.key, stored);
        return done({ ...base, stored, learned: [], watching: false });
      }
      const status = game.status;
      const result: VersusResult = status.kind === 'won' ? (status.winner === 'black' ? 'black-won' : 'white-won') : 'draw';
      const ended = await this.#finish(seat.guildId, stored, game, result, status.kind === 'won' ? 'five' : 'full-board', undefined);
      return done({
        ...base,
        stored: ended.stored,
        learned: ended.learned,
        watching: ended.watching,
        ...(ended.analysis !== undefined ? { analysis: ended.analysis } : {}),
        ...(ended.rated !== undefined ? { rated: ended.rated } : {}),
      });
    });
  }

  /**
   * Ends a game: learns from it when it ended in a five and the server watches, records it
   * (through the retrying writer, as the bot's games are), rates it, and keeps the ended game
   * for /board — except an expired one, which its caller replaces with a tombstone.
   */
  async #finish(guildId: string, stored: VersusGame, game: Game, result: VersusResult, ending: Ending, by: string | undefined) {
    const now = this.#kit.now();
    let learned: readonly LearnedReport[] = [];
    let analysis: AnalysisEnd | undefined;
    let watching = false;
    if (ending === 'five') {
      watching = (await this.#pool.settings(guildId)).watch;
      if (watching) {
        const library = await this.#kit.library(guildId);
        ({ learned, analysis } = await this.#kit.learn(guildId, stored.id, game, library, now, { kind: 'watched', black: stored.black, white: stored.white }));
      }
    }
    const ended: VersusGame = {
      ...stored,
      moves: game.moves.slice(),
      finished: { result, ending, at: now, learned: learned.filter((l) => l.isNew).map((l) => l.text), ...(by !== undefined ? { by } : {}) },
    };
    await this.#kit.store.writer.put(guildId, 'versusRecords', stored.id, ended);
    await this.#kit.lock.run(`counters:${guildId}`, () => foldOldMemberGames(this.#kit.store.guild(guildId), this.#kit.recordsKept, this.#kit.log));
    this.#kit.recorded(guildId, analysis);
    const rated = await this.#ratings.afterVersus(guildId, ended);
    if (ending !== 'expired') await this.#kit.store.guild(guildId).versus.put(versusKey(stored.channelId, stored.black, stored.white), ended);
    this.#kit.log.info('game between members over', { guildId, game: stored.id, result, ending, moves: game.moves.length, learned: ended.finished?.learned.length ?? 0 });
    return { stored: ended, learned, watching, ...(analysis !== undefined ? { analysis } : {}), ...(rated !== undefined ? { rated } : {}) };
  }

  /** Records an idle game as expired — a loss on time for the side to move once both have moved — and leaves a tombstone. */
  async #expire(guildId: string, stored: VersusGame): Promise<Tombstone> {
    const game = gameOf(stored);
    const result: VersusResult = stored.moves.length < 2 ? 'abandoned' : game.turn === 'black' ? 'white-won' : 'black-won';
    await this.#finish(guildId, stored, game, result, 'expired', playerOf(stored, game.turn));
    const memory = this.#kit.store.guild(guildId);
    const key = versusKey(stored.channelId, stored.black, stored.white);
    const tombstone: Tombstone = { game: stored.id, at: this.#kit.now(), idleMs: this.#kit.idleMs };
    await memory.tombstones.put(key, tombstone);
    await memory.versus.delete(key);
    this.#kit.log.info('game between members expired', { guildId, game: stored.id, result });
    return tombstone;
  }

  /** The pair's stored game; an idle one is expired on the spot, and one put away in the last week is reported so. */
  async #current(guildId: string, target: Target & { kind: 'versus' }): Promise<BotResult<VersusGame>> {
    const memory = this.#kit.store.guild(guildId);
    const stored = await memory.versus.get(target.key);
    if (stored === undefined) {
      const tombstone = await memory.tombstones.get(target.key);
      if (tombstone !== undefined && this.#kit.now() - tombstone.at <= TOMBSTONE_MS) return refuse({ code: 'game-expired', idleMs: tombstone.idleMs, at: tombstone.at });
      return refuse({ code: 'no-versus-game', opponent: target.opponent });
    }
    if (stored.finished === undefined && this.#isIdle(stored)) {
      const tombstone = await this.#expire(guildId, stored);
      return refuse({ code: 'game-expired', idleMs: tombstone.idleMs, at: tombstone.at });
    }
    return done(stored);
  }

  /** Which game a command is for; see "Which game" above. */
  async #find(seat: Seat, against: Against | undefined): Promise<BotResult<Target>> {
    if (against?.kind === 'bot') return done({ kind: 'bot' });
    if (against?.kind === 'member') {
      if (against.id === seat.userId) return refuse({ code: 'versus-self' });
      return done({ kind: 'versus', key: versusKey(seat.channelId, seat.userId, against.id), opponent: against.id });
    }
    const memory = this.#kit.store.guild(seat.guildId);
    const [botGame, all] = await Promise.all([memory.games.get(gameKey(seat.channelId, seat.userId)), memory.versus.list()]);
    const mine = all.map((e) => e.value).filter((g) => g.channelId === seat.channelId && (g.black === seat.userId || g.white === seat.userId));
    const target = (g: VersusGame): Target => ({ kind: 'versus', key: versusKey(g.channelId, g.black, g.white), opponent: opponentOf(g, seat.userId) });
    const live = mine.filter((g) => g.finished === undefined);
    const botLive = botGame !== undefined && botGame.finished === undefined;
    if (live.length + (botLive ? 1 : 0) > 1) return refuse({ code: 'several-games', opponents: live.map((g) => opponentOf(g, seat.userId)).sort(), bot: botLive });
    if (live.length === 1) return done(target(live[0]));
    if (botLive) return done({ kind: 'bot' });
    const ended = mine.sort((a, b) => (b.finished?.at ?? 0) - (a.finished?.at ?? 0))[0];
    if (ended !== undefined && (botGame === undefined || (ended.finished?.at ?? 0) > (botGame.finished?.at ?? 0))) return done(target(ended));
    if (botGame === undefined) {
      // A game between members that expired, told as the bot's own expired game is.
      const prefix = `${seat.channelId}.`;
      const expired = (await memory.tombstones.list())
        .filter(({ key }) => key.startsWith(prefix) && key.split('.').length === 3 && key.split('.').slice(1).includes(seat.userId))
        .sort((a, b) => b.value.at - a.value.at)[0];
      if (expired !== undefined) {
        const [, a, b] = expired.key.split('.');
        return done({ kind: 'versus', key: expired.key, opponent: a === seat.userId ? b : a });
      }
    }
    return done({ kind: 'bot' });
  }

  #isIdle(stored: VersusGame): boolean {
    return this.#kit.now() - stored.updatedAt > this.#kit.idleMs;
  }
}

function overProblem(stored: VersusGame) {
  return { code: 'versus-over', result: stored.finished?.result ?? 'abandoned', black: stored.black, white: stored.white } as const;
}
