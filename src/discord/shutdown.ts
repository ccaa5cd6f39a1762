/**
 * A stop that always completes (issue 30). A process manager or container runtime sends
 * SIGTERM and, a grace period later (10 s in common runtimes), SIGKILL; a stop that waits on
 * something that never settles — a websocket closing towards a server already gone, a write on
 * a dead connection — turns every deploy into a hard kill, with whatever was half done.
 *
 * - `InteractionGate`: the door interactions come in by. Open, it hands each to its handler
 *   and keeps it in flight until the handler settles; closed (the stop has begun), it answers
 *   new ones at once with `RESTARTING_TEXT` (an empty list for autocomplete), privately, and
 *   changes nothing.
 * - `stopInOrder`: runs the stop as named steps, one after another, so what is still pending
 *   at the deadline can be named in the log.
 * - `untilDeadline`: the stop's result, or `late` once `SHUTDOWN_GRACE_MS` has passed.
 * - `onStopSignals` (src/bot/signals.ts): the first SIGINT/SIGTERM begins the stop; a second
 *   one exits at once.
 *
 * Decisions:
 * - The default grace is 8 s: under the 10 s most supervisors give, with room for the process
 *   to exit and its last log lines to be written.
 * - A second signal counts only when it comes a moment after the first (signals.ts says why).
 * - Past the deadline the process exits 1 (70, EX_SOFTWARE, would say more, but supervisors
 *   and people read "non-zero"); a second signal exits with 128 + the signal's number, as a
 *   shell reports a process killed by it.
 */
import { MessageFlags, type Interaction } from 'discord.js';
import { errorText, type BotLog } from '../bot/log.ts';

export const DEFAULT_SHUTDOWN_GRACE_MS = 8000;

/** What an interaction that arrives during the stop is told. */
export const RESTARTING_TEXT = "I'm restarting: try again in a moment. Nothing changed.";

/** Exit codes of `npm start`'s bot. */
export const EXIT = { clean: 0, late: 1 } as const;

export interface ShutdownEnv {
  readonly SHUTDOWN_GRACE_MS?: string;
}

/** `SHUTDOWN_GRACE_MS` as a number; throws a TypeError naming the variable when it cannot be used. */
export function shutdownGraceMs(env: ShutdownEnv): number {
  const text = env.SHUTDOWN_GRACE_MS?.trim();
  if (text === undefined || text === '') return DEFAULT_SHUTDOWN_GRACE_MS;
  if (!/^\d{1,7}$/.test(text) || Number(text) < 100) {
    throw new TypeError(`SHUTDOWN_GRACE_MS must be a whole number of milliseconds from 100, not "${text}"`);
  }
  return Number(text);
}

/** An interaction being handled, for the log when the stop runs late. */
export interface InFlight {
  readonly id: string;
  readonly what: string;
  readonly guild: string | null;
  readonly channel: string | null;
  /** How long it has been in flight, in ms. */
  readonly ms: number;
}

export class InteractionGate {
  readonly #inFlight = new Map<string, { what: string; guild: string | null; channel: string | null; since: number }>();
  readonly #drainWaiters = new Set<() => void>();
  readonly #log: BotLog;
  #open = true;

  constructor(log: BotLog) {
    this.#log = log;
  }

  get isOpen(): boolean {
    return this.#open;
  }

  /**
   * Hands the interaction to `handle` while the gate is open; else answers that the bot is
   * restarting. Resolves to whether it was handled. Never rejects.
   */
  async admit(interaction: Interaction, handle: () => Promise<unknown>): Promise<boolean> {
    if (!this.#open) {
      await refuseWhileRestarting(interaction).catch((e: unknown) =>
        this.#log.warn('could not tell an interaction that I am restarting', { interaction: interaction.id, error: errorText(e) }),
      );
      return false;
    }
    this.#inFlight.set(interaction.id, { what: describe(interaction), guild: interaction.guildId, channel: interaction.channelId, since: performance.now() });
    try {
      await handle();
    } catch (e) {
      this.#log.error('handling an interaction failed', { interaction: interaction.id, error: errorText(e) });
    } finally {
      this.#inFlight.delete(interaction.id);
      if (this.#inFlight.size === 0) for (const w of [...this.#drainWaiters]) w();
    }
    return true;
  }

  /** From now on new interactions are answered "restarting". */
  close(): void {
    this.#open = false;
  }

  /** Resolves when no interaction is in flight. */
  drained(): Promise<void> {
    if (this.#inFlight.size === 0) return Promise.resolve();
    return new Promise((resolve) => {
      const done = () => {
        this.#drainWaiters.delete(done);
        resolve();
      };
      this.#drainWaiters.add(done);
    });
  }

  inFlight(): InFlight[] {
    const now = performance.now();
    return [...this.#inFlight].map(([id, f]) => ({ id, what: f.what, guild: f.guild, channel: f.channel, ms: Math.round(now - f.since) }));
  }
}

/** The private "restarting" answer; autocomplete gets an empty list (it cannot show text). */
async function refuseWhileRestarting(interaction: Interaction): Promise<void> {
  if (interaction.isAutocomplete()) await interaction.respond([]);
  else if (interaction.isRepliable()) await interaction.reply({ content: RESTARTING_TEXT, flags: MessageFlags.Ephemeral });
}

function describe(interaction: Interaction): string {
  if (interaction.isChatInputCommand()) return `/${interaction.commandName}`;
  if (interaction.isAutocomplete()) return `autocomplete of /${interaction.commandName}`;
  if (interaction.isButton()) return `button ${interaction.customId.split(':')[0]}`;
  return `interaction of type ${interaction.type}`;
}

export interface StopStep {
  readonly name: string;
  run(): Promise<unknown> | unknown;
}

/**
 * Runs the steps in order; a step that fails is logged and the next one runs (a gateway that
 * will not close must not keep storage open). `progress.step` names the step under way.
 */
export async function stopInOrder(steps: readonly StopStep[], log: BotLog, progress: { step: string | undefined }): Promise<void> {
  for (const step of steps) {
    progress.step = step.name;
    try {
      await step.run();
    } catch (e) {
      log.error('a step of the stop failed; going on with the next', { step: step.name, error: errorText(e) });
    }
  }
  progress.step = undefined;
}

/** `work`'s completion, or `late` when `ms` pass first. The timer does not hold the process. */
export async function untilDeadline(work: Promise<unknown>, ms: number): Promise<'done' | 'late'> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<'late'>((resolve) => {
    timer = setTimeout(() => resolve('late'), ms);
  });
  try {
    return await Promise.race([work.then(() => 'done' as const), late]);
  } finally {
    clearTimeout(timer);
  }
}
