/**
 * What happens to each interaction, for an operator: one log line when it is done — kind,
 * command, outcome, guild, channel, interaction id, member, time to acknowledge and in all —
 * and the same figures as metrics (metrics.ts).
 *
 * - Every line logged while an interaction is handled carries its guild, channel, interaction
 *   id, command and the time since it arrived (`interactionMs`), the service's and storage's lines
 *   included: the handling runs in an `AsyncLocalStorage` context that the bot's logger reads
 *   (`contextLog`). Node's own tool for this, so nothing has to pass an id down by hand.
 * - Acknowledgement is when Discord accepted the first answer: the REST client reports each
 *   response, and the interaction callback's path names the interaction. That catches every
 *   kind of first answer (reply, deferral, update, autocomplete choices) wherever it is sent.
 * - Logs carry no tokens and no message contents: no option values, no reply text. An
 *   interaction's token is part of the URL of its callback and webhook routes, so any such
 *   path in a logged string (a REST error's text) is shortened to `***`.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import type { Interaction, REST } from 'discord.js';
import type { BotLog } from '../bot/log.ts';
import type { Reply } from '../bot/reply.ts';
import type { LogDetail } from '../storage/index.ts';
import { commandNamed } from './commands.ts';
import type { Dispatched } from './dispatch.ts';
import type { BotMetrics, InteractionKind, InteractionOutcome } from './metrics.ts';

interface Context {
  readonly interaction: string;
  readonly kind: InteractionKind;
  readonly command: string;
  readonly guild: string | null;
  readonly channel: string | null;
  readonly user: string;
  readonly start: number;
  ackAt?: number;
  outcome?: InteractionOutcome;
  problem?: string;
}

const current = new AsyncLocalStorage<Context>();

/** A logger adding the interaction under way (if any) to each line, with secrets scrubbed. */
export function contextLog(log: BotLog): BotLog {
  const at =
    (level: keyof BotLog) =>
    (message: string, detail?: LogDetail): void => {
      const c = current.getStore();
      const scrubbed = detail === undefined ? undefined : scrub(detail);
      if (c === undefined) return log[level](message, scrubbed);
      // The line's own fields win: `ms` of an analysis is its own time, not the interaction's.
      log[level](message, { ...contextOf(c), ...(scrubbed ?? {}) });
    };
  return { error: at('error'), warn: at('warn'), info: at('info'), debug: at('debug') };
}

function contextOf(c: Context): LogDetail {
  return { interaction: c.interaction, command: c.command, guild: c.guild, channel: c.channel, interactionMs: Math.round(performance.now() - c.start) };
}

const TOKEN_IN_PATH = /(\/(?:interactions\/\d+|webhooks\/\d+)\/)[^/\s"'?]+/g;

/** The detail with interaction and webhook tokens in URL paths replaced by `***`. */
export function scrub(detail: LogDetail): LogDetail {
  let changed = false;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(detail)) {
    if (typeof v === 'string' && TOKEN_IN_PATH.test(v)) {
      TOKEN_IN_PATH.lastIndex = 0;
      out[k] = v.replace(TOKEN_IN_PATH, '$1***');
      changed = true;
    } else out[k] = v;
  }
  return changed ? out : detail;
}

export class InteractionObserver {
  readonly #metrics: BotMetrics;
  readonly #log: BotLog;
  readonly #open = new Map<string, Context>();

  constructor(metrics: BotMetrics, log: BotLog, rest: REST) {
    this.#metrics = metrics;
    this.#log = log;
    rest.on('response', (request, response) => {
      if (!response.ok) return;
      const id = /^\/interactions\/(\d+)\//.exec(request.path)?.[1];
      const c = id === undefined ? undefined : this.#open.get(id);
      if (c !== undefined && c.ackAt === undefined) c.ackAt = performance.now();
    });
  }

  /**
   * Runs `handle` for the interaction in its logging context, then logs and counts what came
   * of it. `handle` resolves to how dispatch ended, or `restarting` when the stop had begun.
   */
  async observe(interaction: Interaction, handle: () => Promise<Dispatched | 'restarting'>): Promise<void> {
    const c: Context = {
      interaction: interaction.id,
      kind: interaction.isAutocomplete() ? 'autocomplete' : interaction.isButton() ? 'button' : 'command',
      command: commandLabel(interaction),
      guild: interaction.guildId,
      channel: interaction.channelId,
      user: interaction.user.id,
      start: performance.now(),
    };
    this.#open.set(c.interaction, c);
    let ended: Dispatched | 'restarting' | 'threw';
    try {
      ended = await current.run(c, handle);
    } catch {
      ended = 'threw';
    } finally {
      this.#open.delete(c.interaction);
    }
    const acknowledged = c.ackAt !== undefined || isAcknowledged(interaction);
    const outcome = outcomeOf(ended, acknowledged, c.outcome);
    const ms = performance.now() - c.start;
    const ackMs = c.ackAt === undefined ? undefined : c.ackAt - c.start;
    this.#metrics.interactionDone(c.kind, c.command, outcome, ms / 1000, ackMs === undefined ? undefined : ackMs / 1000);
    this.#log[outcome === 'error' || outcome === 'unanswered' ? 'warn' : 'info']('interaction', {
      kind: c.kind,
      command: c.command,
      outcome,
      ...(c.problem !== undefined ? { problem: c.problem } : {}),
      interaction: c.interaction,
      guild: c.guild,
      channel: c.channel,
      user: c.user,
      ...(ackMs !== undefined ? { ackMs: Math.round(ackMs) } : {}),
      ms: Math.round(ms),
    });
  }

  /** `work` as it was, noting whether its reply was a problem (nothing changed) for the outcome. */
  tap(interactionId: string, work: Promise<Reply> | Reply): Promise<Reply> {
    const c = this.#open.get(interactionId);
    return Promise.resolve(work).then(
      (reply) => {
        if (c !== undefined && reply.problem !== undefined) {
          c.outcome = reply.problem === 'storage-unavailable' ? 'storage_unavailable' : 'refused';
          c.problem = reply.problem;
        }
        return reply;
      },
      (e: unknown) => {
        if (c !== undefined) c.outcome = 'error';
        throw e;
      },
    );
  }
}

function outcomeOf(ended: Dispatched | 'restarting' | 'threw', acknowledged: boolean, noted: InteractionOutcome | undefined): InteractionOutcome {
  switch (ended) {
    case 'restarting':
      return 'restarting';
    case 'unknown':
      return 'unknown_command';
    case 'stale':
      return 'stale_options';
    case 'failed':
    case 'threw':
      return 'error';
    case 'handled':
      return acknowledged ? (noted ?? 'ok') : 'unanswered';
  }
}

/** A registered command's name, else `unknown`: a label must not take any value a client sends. */
function commandLabel(interaction: Interaction): string {
  const name = interaction.isChatInputCommand() || interaction.isAutocomplete() ? interaction.commandName : interaction.isButton() ? interaction.customId.split(':')[0] : undefined;
  return name !== undefined && commandNamed(name) !== undefined ? name : 'unknown';
}

function isAcknowledged(interaction: Interaction): boolean {
  if (interaction.isAutocomplete()) return interaction.responded;
  if (interaction.isRepliable()) return interaction.replied || interaction.deferred;
  return false;
}
