/**
 * Who asks the service, and where it keeps what it knows: a member in a channel of a server,
 * and the part of storage the service and its community modules (versus.ts, ratings.ts,
 * pool.ts) use.
 */
import type { Backend, GuildMemory, RetryingWriter } from '../storage/index.ts';
import type { BotSchema } from './records.ts';

/** Who is asking, and where: a member in a channel of a server. */
export interface Seat {
  readonly guildId: string;
  readonly channelId: string;
  readonly userId: string;
}

/** The part of `Storage` the service uses (src/storage `Storage<BotSchema>` fits). */
export interface BotStore {
  guild(guildId: string): GuildMemory<BotSchema>;
  readonly writer: Pick<RetryingWriter<BotSchema>, 'put'> & Partial<Pick<RetryingWriter<BotSchema>, 'onLanded'>>;
  /** Where the shared pool lives (pool.ts); without it, servers cannot share. */
  readonly backend?: Backend;
}
