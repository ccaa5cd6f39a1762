/**
 * The gateway: a WebSocket speaking Discord's JSON protocol
 * (https://discord.com/developers/docs/events/gateway), enough for a discord.js v14 client to
 * log in, stay connected, resume and receive dispatches.
 *
 *     server                         client
 *     HELLO {heartbeat_interval}  →
 *                                 ←  IDENTIFY {token, intents, properties, shard}
 *     READY {session_id, resume_gateway_url, user, application, guilds (unavailable)}  →
 *     GUILD_CREATE per guild      →
 *                                 ←  HEARTBEAT {d: last seq}
 *     HEARTBEAT_ACK               →
 *     INTERACTION_CREATE, …       →
 *
 * A session outlives its socket: after a drop the client connects to `resume_gateway_url` and
 * sends RESUME {session_id, seq}; the fake replays every dispatch after `seq` and then sends
 * RESUMED. A client closing with 1000 or 1001 ends its session, as Discord does. Errors close the
 * socket with Discord's close codes (4001 unknown opcode, 4002 decode error, 4003 not
 * authenticated, 4004 authentication failed, 4005 already authenticated, 4007 invalid seq,
 * 4010 invalid shard, 4012 invalid API version, 4013 invalid intents, 4014 disallowed intents).
 *
 * Sharding: IDENTIFY's `shard: [i, n]` (default [0, 1]) makes the session shard i of n; it is
 * told of, and receives the events of, the guilds with `(guild_id >> 22) % n === i`, as Discord
 * routes them. Each shard has its own current session; an event goes to its guild's shard.
 *
 * Not modelled: zlib compression and ETF (the fake speaks JSON text only and refuses a
 * `compress` query or IDENTIFY `compress: true`), the server closing on missed heartbeats,
 * identify rate limits, presence and voice.
 */
import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import {
  GatewayCloseCodes,
  GatewayDispatchEvents,
  GatewayIntentBits,
  GatewayOpcodes,
  type APIUser,
  type GatewayDispatchPayload,
  type GatewayReadyDispatchData,
} from 'discord.js';
import { WebSocket, WebSocketServer, type RawData } from 'ws';
import type { Changes } from './changes.ts';
import type { FakeGuild } from './guilds.ts';
import { randomToken } from './snowflake.ts';

/** The intents Discord gates behind a switch in the developer portal. */
export const PRIVILEGED_INTENTS = GatewayIntentBits.GuildMembers | GatewayIntentBits.GuildPresences | GatewayIntentBits.MessageContent;
const ALL_INTENTS = Object.values(GatewayIntentBits)
  .filter((v): v is number => typeof v === 'number')
  .reduce((all, bit) => all | bit, 0);

/** The largest payload a client may send (Discord's limit). */
const MAX_CLIENT_PAYLOAD = 4096;
/** How many dispatches a session keeps for RESUME. */
const REPLAY_LIMIT = 1000;

export const GATEWAY_PATH = '/gateway';
export const RESUME_PATH = '/gateway-resume';

/** Something that happened on the gateway, for tests and for debugging a failing one. */
export interface GatewayEvent {
  readonly at: number;
  readonly kind: 'open' | 'identify' | 'resume' | 'heartbeat' | 'dispatch' | 'invalid-session' | 'close';
  /** The connection's number, counting from 1 in the order they opened. */
  readonly connection: number;
  readonly sessionId?: string;
  /** `dispatch`: the event name (connection 0: no socket, kept for replay); `open`: the path and query; `identify`: the shard, `i/n`; `resume`: what was replayed. */
  readonly detail?: string;
  readonly seq?: number | null;
  readonly intents?: number;
  /** `close`: the code, and who closed (`client` or `server`). */
  readonly code?: number;
  readonly by?: 'client' | 'server';
}

export interface GatewayOptions {
  readonly token: string;
  readonly bot: APIUser;
  readonly application: GatewayReadyDispatchData['application'];
  readonly guilds: () => readonly FakeGuild[];
  readonly heartbeatIntervalMs: number;
  /** Privileged intents the application is granted (none by default). */
  readonly grantedIntents: number;
  /** `ws://host:port`, for `resume_gateway_url`. */
  readonly base: () => string;
  readonly changes: Changes;
}

/** The shard a guild's events go to, of `count` shards (Discord's formula). */
export function shardOf(guildId: string, count: number): number {
  return Number((BigInt(guildId) >> 22n) % BigInt(count));
}

interface Session {
  readonly id: string;
  /** [shard id, shard count] as identified. */
  readonly shard: readonly [number, number];
  seq: number;
  readonly replay: GatewayDispatchPayload[];
  connection: Connection | null;
  ended: boolean;
}

interface Connection {
  readonly number: number;
  readonly ws: WebSocket;
  /** The TCP socket under ws: held corked for the rest of a tick in which something was sent. */
  readonly socket: Duplex;
  corked: boolean;
  session: Session | null;
  /** Set when the server starts the close, with whether the session survives it. */
  serverClose: { resumable: boolean } | null;
}

export class Gateway {
  readonly #wss = new WebSocketServer({ noServer: true, maxPayload: 1 << 20 });
  readonly #connections = new Set<Connection>();
  readonly #sessions = new Map<string, Session>();
  readonly #events: GatewayEvent[] = [];
  /** The session each shard's events go to, by `i/n`. */
  readonly #current = new Map<string, Session>();
  #opened = 0;

  constructor(private readonly options: GatewayOptions) {}

  get events(): readonly GatewayEvent[] {
    return this.#events;
  }

  /** The session interactions go to (the first shard's, when several): the newest identified one that has not ended. */
  get currentSessionId(): string | null {
    return this.#sessionFor(undefined)?.id ?? null;
  }

  /** Whether a socket is open and identified or resumed. */
  get connected(): boolean {
    return [...this.#current.values()].some((s) => s.connection !== null);
  }

  /** The current session of the shard a guild's events go to; without a guild, the first current session. */
  #sessionFor(guildId: string | undefined): Session | null {
    const sessions = [...this.#current.values()];
    if (guildId === undefined) return sessions[0] ?? null;
    return sessions.find((s) => shardOf(guildId, s.shard[1]) === s.shard[0]) ?? null;
  }

  handleUpgrade(request: IncomingMessage, socket: Duplex, head: Buffer): void {
    this.#wss.handleUpgrade(request, socket, head, (ws) => this.#open(ws, socket, request));
  }

  /**
   * Sends a dispatch on the current session (kept for replay if its socket is down). Throws when
   * no bot has identified, or its session ended.
   */
  dispatch(event: string, data: unknown): number {
    const guildId = typeof data === 'object' && data !== null && typeof (data as { guild_id?: unknown }).guild_id === 'string' ? (data as { guild_id: string }).guild_id : undefined;
    const session = this.#sessionFor(guildId);
    if (session === null) throw new Error(`no bot session on the fake gateway to send ${event} on${guildId === undefined ? '' : ` for guild ${guildId}`} (has the client logged in?)\n${this.describe()}`);
    return this.#dispatch(session, event, data);
  }

  /**
   * Closes every open socket from the server's side. With `resumable` (the default) the session
   * survives and discord.js resumes it; without, RESUME is answered with INVALID_SESSION and the
   * client identifies again (after its own 5 s identify throttle).
   */
  async disconnect({ code = 4000, reason = 'fake Discord disconnect', resumable = true }: { code?: number; reason?: string; resumable?: boolean } = {}): Promise<void> {
    const closing = [...this.#connections].filter((c) => c.ws.readyState === WebSocket.OPEN);
    await Promise.all(closing.map((c) => this.#close(c, code, reason, resumable)));
  }

  /** Closes every socket at once and stops accepting new ones. */
  async close(): Promise<void> {
    for (const c of this.#connections) c.ws.terminate();
    this.#connections.clear();
    await new Promise<void>((resolve) => this.#wss.close(() => resolve()));
  }

  describe(): string {
    const recent = this.#events.slice(-15).map((e) => `    ${JSON.stringify(e)}`);
    const current = [...this.#current.entries()].map(([shard, s]) => `${s.id} (shard ${shard})`).join(', ');
    return [`  gateway: ${this.#connections.size} open socket(s), current session ${current || 'none'}`, ...recent].join('\n');
  }

  #log(event: Omit<GatewayEvent, 'at'>): void {
    this.#events.push({ at: Date.now(), ...event });
    this.options.changes.notify();
  }

  #open(ws: WebSocket, socket: Duplex, request: IncomingMessage): void {
    const connection: Connection = { number: ++this.#opened, ws, socket, corked: false, session: null, serverClose: null };
    this.#connections.add(connection);
    const url = new URL(request.url ?? '/', 'ws://fake');
    this.#log({ kind: 'open', connection: connection.number, detail: `${url.pathname}${url.search}` });
    ws.on('message', (data, isBinary) => this.#receive(connection, data, isBinary));
    ws.on('close', (code) => this.#closed(connection, code));
    ws.on('error', () => ws.terminate());

    if (url.searchParams.get('v') !== '10') return void this.#refuse(connection, GatewayCloseCodes.InvalidAPIVersion, 'Invalid API version.');
    if ((url.searchParams.get('encoding') ?? 'json') !== 'json') return void this.#refuse(connection, GatewayCloseCodes.DecodeError, 'The fake speaks encoding=json only.');
    if (url.searchParams.has('compress')) return void this.#refuse(connection, GatewayCloseCodes.DecodeError, 'The fake does not compress.');
    this.#send(connection, { op: GatewayOpcodes.Hello, d: { heartbeat_interval: this.options.heartbeatIntervalMs }, s: null, t: null });
  }

  #receive(connection: Connection, data: RawData, isBinary: boolean): void {
    const bytes = Array.isArray(data) ? Buffer.concat(data) : Buffer.from(data as ArrayBuffer);
    if (isBinary || bytes.length > MAX_CLIENT_PAYLOAD) return this.#refuse(connection, GatewayCloseCodes.DecodeError, 'Error while decoding payload.');
    let payload: { op?: unknown; d?: unknown };
    try {
      payload = JSON.parse(bytes.toString('utf8')) as { op?: unknown; d?: unknown };
    } catch {
      return this.#refuse(connection, GatewayCloseCodes.DecodeError, 'Error while decoding payload.');
    }
    if (typeof payload !== 'object' || payload === null) return this.#refuse(connection, GatewayCloseCodes.DecodeError, 'Error while decoding payload.');
    switch (payload.op) {
      case GatewayOpcodes.Heartbeat:
        this.#log({ kind: 'heartbeat', connection: connection.number, sessionId: connection.session?.id, seq: typeof payload.d === 'number' ? payload.d : null });
        return this.#send(connection, { op: GatewayOpcodes.HeartbeatAck, d: null, s: null, t: null });
      case GatewayOpcodes.Identify:
        return this.#identify(connection, payload.d);
      case GatewayOpcodes.Resume:
        return this.#resume(connection, payload.d);
      case GatewayOpcodes.PresenceUpdate:
      case GatewayOpcodes.VoiceStateUpdate:
      case GatewayOpcodes.RequestGuildMembers:
      case GatewayOpcodes.RequestSoundboardSounds:
        if (connection.session === null) return this.#refuse(connection, GatewayCloseCodes.NotAuthenticated, 'Not authenticated.');
        return; // accepted and ignored
      default:
        return this.#refuse(connection, GatewayCloseCodes.UnknownOpcode, 'Unknown opcode.');
    }
  }

  #identify(connection: Connection, d: unknown): void {
    if (connection.session !== null) return this.#refuse(connection, GatewayCloseCodes.AlreadyAuthenticated, 'Already authenticated.');
    const identify = (typeof d === 'object' && d !== null ? d : {}) as { token?: unknown; intents?: unknown; shard?: unknown; compress?: unknown; properties?: unknown };
    if (identify.token !== this.options.token) return this.#refuse(connection, GatewayCloseCodes.AuthenticationFailed, 'Authentication failed.');
    const intents = identify.intents;
    if (typeof intents !== 'number' || !Number.isInteger(intents) || (intents & ~ALL_INTENTS) !== 0) return this.#refuse(connection, GatewayCloseCodes.InvalidIntents, 'Invalid intent(s).');
    if ((intents & PRIVILEGED_INTENTS & ~this.options.grantedIntents) !== 0) return this.#refuse(connection, GatewayCloseCodes.DisallowedIntents, 'Disallowed intent(s).');
    const shard = identify.shard ?? [0, 1];
    if (!Array.isArray(shard) || shard.length !== 2 || !Number.isInteger(shard[1]) || shard[1] < 1 || !Number.isInteger(shard[0]) || shard[0] < 0 || shard[0] >= shard[1]) {
      return this.#refuse(connection, GatewayCloseCodes.InvalidShard, 'Invalid shard.');
    }
    if (identify.compress === true) return this.#refuse(connection, GatewayCloseCodes.DecodeError, 'The fake does not compress.');
    if (typeof identify.properties !== 'object' || identify.properties === null) return this.#refuse(connection, GatewayCloseCodes.DecodeError, 'Error while decoding payload.');

    const session: Session = { id: randomToken('session').replace(/[^a-zA-Z0-9]/g, '').slice(0, 32), shard: [shard[0] as number, shard[1] as number], seq: 0, replay: [], connection, ended: false };
    this.#sessions.set(session.id, session);
    connection.session = session;
    this.#current.set(session.shard.join('/'), session);
    this.#log({ kind: 'identify', connection: connection.number, sessionId: session.id, intents, detail: `shard ${session.shard[0]}/${session.shard[1]}` });

    const guilds = this.options.guilds().filter((g) => shardOf(g.id, session.shard[1]) === session.shard[0]);
    const ready: GatewayReadyDispatchData = {
      v: 10,
      user: this.options.bot,
      guilds: guilds.map((g) => ({ id: g.id, unavailable: true })),
      session_id: session.id,
      resume_gateway_url: `${this.options.base()}${RESUME_PATH}`,
      shard: [session.shard[0], session.shard[1]],
      application: this.options.application,
    };
    this.#dispatch(session, GatewayDispatchEvents.Ready, ready);
    for (const guild of guilds) this.#dispatch(session, GatewayDispatchEvents.GuildCreate, guild.guildCreate());
  }

  #resume(connection: Connection, d: unknown): void {
    if (connection.session !== null) return this.#refuse(connection, GatewayCloseCodes.AlreadyAuthenticated, 'Already authenticated.');
    const resume = (typeof d === 'object' && d !== null ? d : {}) as { token?: unknown; session_id?: unknown; seq?: unknown };
    if (resume.token !== this.options.token) return this.#refuse(connection, GatewayCloseCodes.AuthenticationFailed, 'Authentication failed.');
    const session = typeof resume.session_id === 'string' ? this.#sessions.get(resume.session_id) : undefined;
    const seq = typeof resume.seq === 'number' ? resume.seq : 0;
    if (session === undefined || session.ended) {
      this.#log({ kind: 'invalid-session', connection: connection.number, sessionId: typeof resume.session_id === 'string' ? resume.session_id : undefined, seq });
      return this.#send(connection, { op: GatewayOpcodes.InvalidSession, d: false, s: null, t: null });
    }
    if (seq > session.seq) return this.#refuse(connection, GatewayCloseCodes.InvalidSeq, 'Invalid seq.');
    if (session.replay.length > 0 && session.replay[0].s > seq + 1) {
      // Events the client missed are no longer kept: it must start over.
      this.#end(session);
      this.#log({ kind: 'invalid-session', connection: connection.number, sessionId: session.id });
      return this.#send(connection, { op: GatewayOpcodes.InvalidSession, d: false, s: null, t: null });
    }
    if (session.connection !== null && session.connection !== connection) session.connection.ws.terminate();
    session.connection = connection;
    connection.session = session;
    const missed = session.replay.filter((payload) => payload.s > seq);
    for (const payload of missed) this.#send(connection, payload);
    this.#log({ kind: 'resume', connection: connection.number, sessionId: session.id, seq, detail: `replayed ${missed.map((p) => p.t).join(', ') || 'nothing'}` });
    this.#dispatch(session, GatewayDispatchEvents.Resumed, null);
  }

  #dispatch(session: Session, event: string, data: unknown): number {
    const payload = { op: GatewayOpcodes.Dispatch, t: event, s: ++session.seq, d: data } as GatewayDispatchPayload;
    session.replay.push(payload);
    if (session.replay.length > REPLAY_LIMIT) session.replay.shift();
    const connection = session.connection;
    if (connection !== null && connection.ws.readyState === WebSocket.OPEN) this.#send(connection, payload);
    this.#log({ kind: 'dispatch', connection: connection?.number ?? 0, sessionId: session.id, detail: event, seq: payload.s });
    return payload.s;
  }

  /**
   * Frames sent in one tick leave in one write: two interactions a test sends "at once" reach
   * the client together, as they would if two members clicked at the same moment, instead of
   * depending on whether the test process is descheduled between two writes.
   */
  #send(connection: Connection, payload: object): void {
    if (connection.ws.readyState !== WebSocket.OPEN) return;
    if (!connection.corked) {
      connection.corked = true;
      connection.socket.cork();
      process.nextTick(() => {
        connection.corked = false;
        connection.socket.uncork();
      });
    }
    connection.ws.send(JSON.stringify(payload));
  }

  #refuse(connection: Connection, code: number, reason: string): void {
    void this.#close(connection, code, reason, false);
  }

  #close(connection: Connection, code: number, reason: string, resumable: boolean): Promise<void> {
    connection.serverClose = { resumable };
    if (connection.ws.readyState === WebSocket.CLOSED) return Promise.resolve();
    return new Promise<void>((resolve) => {
      // A client that never answers the close frame is cut off.
      const timer = setTimeout(() => connection.ws.terminate(), 1000);
      connection.ws.once('close', () => {
        clearTimeout(timer);
        resolve();
      });
      connection.ws.close(code, reason);
    });
  }

  #closed(connection: Connection, code: number): void {
    this.#connections.delete(connection);
    const session = connection.session;
    const by = connection.serverClose === null ? 'client' : 'server';
    this.#log({ kind: 'close', connection: connection.number, sessionId: session?.id, code, by });
    if (session === null || session.connection !== connection) return;
    session.connection = null;
    // Discord ends a session the client closes normally; a drop or 4xxx close can be resumed.
    const ends = connection.serverClose === null ? code === 1000 || code === 1001 : !connection.serverClose.resumable;
    if (ends) this.#end(session);
  }

  #end(session: Session): void {
    session.ended = true;
    session.replay.length = 0;
    const key = session.shard.join('/');
    if (this.#current.get(key) === session) this.#current.delete(key);
  }
}
