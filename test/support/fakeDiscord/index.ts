/**
 * A local fake of Discord — REST over HTTP and the gateway over a WebSocket, on one port of
 * 127.0.0.1 — good enough to run the real discord.js v14 Client against in end-to-end tests.
 * See docs/FAKE-DISCORD.md for what it covers and the discord.js facts it rests on.
 *
 *     const fake = await startFakeDiscord({ guilds: [{ id, name, ownerId }] });
 *     const client = createDiscordClient({ DISCORD_TOKEN: fake.token, DISCORD_API_URL: fake.url });
 *     await client.login();                        // GET /gateway/bot, then the gateway
 *     const i = fake.interact({ type: 'command', name: 'play', options: { size: 15 } });
 *     const reply = await i.waitForResponse(isCallback(InteractionResponseType.ChannelMessageWithSource));
 *     await client.destroy();
 *     await fake.close();
 */
import { MessageType, type ApplicationFlags, type APIApplication, type APIApplicationCommand, type APIGuildMember, type APIMessage, type APITextChannel, type APIUser } from 'discord.js';
import { Changes } from './changes.ts';
import { CommandRegistry, type CommandRegistration } from './commands.ts';
import { ApiError, emptyMessage, missingAccess, unknownChannel, unknownGuild, unknownMessage } from './errors.ts';
import { GATEWAY_PATH, Gateway, RESUME_PATH, type GatewayEvent } from './gateway.ts';
import { FakeGuild, makeUser, type FakeGuildSpec, type FakeUserSpec } from './guilds.ts';
import { HttpServer, type LoggedRequest, type ParsedRequest, type Route, type RouteResult } from './http.ts';
import { Interactions, type FakeInteraction, type InteractOptions, type RestRequest } from './interactions.ts';
import { MessageStore } from './messages.ts';
import { snowflake } from './snowflake.ts';
import { omit } from './json.ts';
import { checkedMessageBody, isEmptyMessage } from './validate.ts';

export { ADMIN_PERMISSIONS, MEMBER_PERMISSIONS, ALL_PERMISSIONS, EVERYONE_PERMISSIONS, type FakeGuildSpec, type FakeMemberSpec, type FakeRoleSpec, type FakeChannelSpec, type FakeUserSpec } from './guilds.ts';
export { isCallback, isEdit, isFollowUp, isDelete } from './interactions.ts';
export type { BotResponse, CallbackResponse, EditResponse, FollowUpResponse, DeleteResponse, RejectedResponse, FakeInteraction, InteractOptions, OptionValue, CommandInvocation, AutocompleteInvocation, ButtonPress } from './interactions.ts';
export type { FakeFile } from './messages.ts';
export type { CommandRegistration } from './commands.ts';
export type { GatewayEvent } from './gateway.ts';
export type { LoggedRequest } from './http.ts';
export { snowflake } from './snowflake.ts';
export { shardOf } from './gateway.ts';
export { parseMultipart, boundaryOf } from './multipart.ts';

export interface FakeDiscordOptions {
  readonly guilds?: readonly FakeGuildSpec[];
  /** The bot's user. Default: `{ id: applicationId, username: 'Go-Moku' }`. */
  readonly botUser?: FakeUserSpec;
  /** Default: the bot user's id (as for applications made since 2021), else a made-up id. */
  readonly applicationId?: string;
  /** The bot token the fake accepts on REST and IDENTIFY. Default `fake-bot-token`. */
  readonly token?: string;
  /** HELLO's `heartbeat_interval`. Default 41250 ms, as Discord sends. */
  readonly heartbeatIntervalMs?: number;
  /** How long after an interaction its callback is still taken. Default 3000 ms, as Discord. */
  readonly interactionDeadlineMs?: number;
  /** Privileged intents the application is granted (GatewayIntentBits). Default none. */
  readonly grantedIntents?: number;
  /** The shard count `GET /gateway/bot` recommends. Default 1. Any IDENTIFY `shard: [i, n]` is served (gateway.ts). */
  readonly shards?: number;
}

export interface FakeDiscord {
  /** The REST base to put in DISCORD_API_URL: `http://127.0.0.1:PORT/api`. */
  readonly url: string;
  /** What `GET /gateway/bot` answers: `ws://127.0.0.1:PORT/gateway`. */
  readonly gatewayUrl: string;
  readonly token: string;
  readonly applicationId: string;
  readonly botUser: APIUser;
  /** Sends an INTERACTION_CREATE to the connected bot and returns its handle. Throws if no bot is logged in. */
  interact(options: InteractOptions): FakeInteraction;
  /** Sends any dispatch (e.g. GUILD_DELETE) on the current gateway session; returns its seq. */
  dispatch(event: string, data: unknown): number;
  /** Closes the bot's gateway socket from the server side (see Gateway.disconnect). */
  disconnect(options?: { code?: number; reason?: string; resumable?: boolean }): Promise<void>;
  /** Every REST request so far, in order. */
  requests(): readonly LoggedRequest[];
  /** Every write of application commands so far (PUT, POST, DELETE). */
  registrations(): readonly CommandRegistration[];
  /** The commands registered now: global with no argument, else the guild's. */
  commands(guildId?: string): APIApplicationCommand[];
  /** Messages in a channel the fake holds (replies, follow-ups, channel messages), oldest first. */
  channelMessages(channelId: string): APIMessage[];
  message(id: string): APIMessage | undefined;
  /** Gateway happenings: connections, IDENTIFY, RESUME, heartbeats, dispatches, closes. */
  gatewayEvents(): readonly GatewayEvent[];
  /** Resolves when `probe` returns something other than undefined (checked on every change). */
  waitFor<T>(probe: () => T | undefined, options?: { timeoutMs?: number; what?: string }): Promise<T>;
  /** The recent requests and gateway events, for a failing test's message. */
  describe(): string;
  /** Closes every socket and the server, and rejects pending waits. */
  close(): Promise<void>;
}

const HOST = '127.0.0.1';
/** A new application's flags: no privileged intent enabled, no badge. */
const APPLICATION_FLAGS = 0 as ApplicationFlags;

export async function startFakeDiscord(options: FakeDiscordOptions = {}): Promise<FakeDiscord> {
  const applicationId = options.applicationId ?? options.botUser?.id ?? snowflake();
  const botUser = makeUser(options.botUser ?? { id: applicationId, username: 'Go-Moku' }, true);
  const token = options.token ?? 'fake-bot-token';
  const changes = new Changes();
  const requestLog: LoggedRequest[] = [];
  const guilds = new Map<string, FakeGuild>();
  for (const spec of options.guilds ?? []) {
    if (guilds.has(spec.id)) throw new Error(`two guilds with id ${spec.id}`);
    guilds.set(spec.id, new FakeGuild(spec, botUser));
  }
  let base = '';
  const messages = new MessageStore(() => base);
  const commands = new CommandRegistry(applicationId);
  const gateway = new Gateway({
    token,
    bot: botUser,
    application: { id: applicationId, flags: APPLICATION_FLAGS, flags_new: String(APPLICATION_FLAGS) },
    guilds: () => [...guilds.values()],
    heartbeatIntervalMs: options.heartbeatIntervalMs ?? 41_250,
    grantedIntents: options.grantedIntents ?? 0,
    base: () => base.replace(/^http/, 'ws'),
    changes,
  });
  const interactions = new Interactions({
    applicationId,
    bot: botUser,
    guilds,
    messages,
    commands,
    changes,
    deadlineMs: options.interactionDeadlineMs ?? 3000,
  });

  const application: APIApplication = {
    id: applicationId,
    name: botUser.username,
    icon: null,
    description: '',
    bot_public: true,
    bot_require_code_grant: false,
    verify_key: '0'.repeat(64),
    team: null,
    summary: '',
    flags: APPLICATION_FLAGS,
    flags_new: String(APPLICATION_FLAGS),
    bot: botUser,
  };

  const ownApp = (params: Readonly<Record<string, string>>): void => {
    if (params.app !== applicationId) throw missingAccess();
  };
  const knownGuild = (params: Readonly<Record<string, string>>): FakeGuild => {
    const guild = guilds.get(params.guild);
    if (guild === undefined) throw missingAccess();
    return guild;
  };
  const channelOf = (channelId: string): { guild: FakeGuild; channel: APITextChannel } => {
    for (const guild of guilds.values()) {
      const channel = guild.channel(channelId);
      if (channel !== undefined) return { guild, channel };
    }
    throw unknownChannel();
  };
  const ok = (json: unknown): RouteResult => ({ status: 200, json });
  const asRestRequest = (r: ParsedRequest): RestRequest => ({ method: r.method, path: `${r.path}${r.query.size > 0 ? `?${r.query.toString()}` : ''}`, body: r.body, files: r.files, query: r.query });
  const botMessageIn = (channelId: string, messageId: string): APIMessage => {
    channelOf(channelId);
    const message = messages.require(messageId);
    if (message.channel_id !== channelId) throw unknownMessage();
    return message;
  };

  const commandRoutes = (prefix: string, guildOf: (p: Readonly<Record<string, string>>) => string | null): Route[] => [
    { method: 'GET', pattern: prefix, auth: true, handle: (r) => (ownApp(r.params), ok(commands.list(guildOf(r.params)))) },
    { method: 'PUT', pattern: prefix, auth: true, handle: (r) => (ownApp(r.params), ok(commands.overwrite(guildOf(r.params), r.body))) },
    {
      method: 'POST',
      pattern: prefix,
      auth: true,
      handle: (r) => {
        ownApp(r.params);
        const { created, command } = commands.upsert(guildOf(r.params), r.body);
        return { status: created ? 201 : 200, json: command };
      },
    },
    { method: 'GET', pattern: `${prefix}/:command`, auth: true, handle: (r) => (ownApp(r.params), ok(commands.get(guildOf(r.params), r.params.command))) },
    { method: 'DELETE', pattern: `${prefix}/:command`, auth: true, handle: (r) => (ownApp(r.params), commands.delete(guildOf(r.params), r.params.command), { status: 204 }) },
  ];

  const routes: Route[] = [
    {
      method: 'GET',
      pattern: '/gateway/bot',
      auth: true,
      handle: () => ok({ url: `${base.replace(/^http/, 'ws')}${GATEWAY_PATH}`, shards: options.shards ?? 1, session_start_limit: { total: 1000, remaining: 1000, reset_after: 86_400_000, max_concurrency: 1 } }),
    },
    { method: 'GET', pattern: '/gateway', auth: false, handle: () => ok({ url: `${base.replace(/^http/, 'ws')}${GATEWAY_PATH}` }) },
    { method: 'GET', pattern: '/users/@me', auth: true, handle: () => ok(botUser) },
    { method: 'GET', pattern: '/applications/@me', auth: true, handle: () => ok(application) },
    ...commandRoutes('/applications/:app/commands', () => null),
    ...commandRoutes('/applications/:app/guilds/:guild/commands', (p) => knownGuild(p).id),
    {
      method: 'GET',
      pattern: '/guilds/:guild',
      auth: true,
      handle: (r) => {
        const guild = guilds.get(r.params.guild);
        if (guild === undefined) throw unknownGuild();
        const gatewayOnly = ['channels', 'members', 'voice_states', 'presences', 'threads', 'stage_instances', 'guild_scheduled_events', 'soundboard_sounds', 'joined_at', 'large', 'unavailable', 'member_count'] as const;
        return ok(omit(guild.guildCreate(), gatewayOnly));
      },
    },
    {
      method: 'GET',
      pattern: '/guilds/:guild/members/:user',
      auth: true,
      handle: (r) => {
        const guild = guilds.get(r.params.guild);
        if (guild === undefined) throw unknownGuild();
        if (guild.knownMember(r.params.user) === undefined) throw new ApiError(404, 10007, 'Unknown Member');
        return ok(guild.memberPayload(r.params.user) satisfies APIGuildMember);
      },
    },
    { method: 'GET', pattern: '/channels/:channel', auth: true, handle: (r) => ok(channelOf(r.params.channel).channel) },
    {
      method: 'POST',
      pattern: '/channels/:channel/messages',
      auth: true,
      handle: (r) => {
        const { guild } = channelOf(r.params.channel);
        const body = checkedMessageBody(r.body, r.files);
        if (isEmptyMessage(body, r.files.length)) throw emptyMessage();
        return ok(messages.create({ channelId: r.params.channel, guildId: guild.id, author: botUser, type: MessageType.Default }, body, r.files));
      },
    },
    { method: 'GET', pattern: '/channels/:channel/messages/:message', auth: true, handle: (r) => ok(botMessageIn(r.params.channel, r.params.message)) },
    {
      method: 'PATCH',
      pattern: '/channels/:channel/messages/:message',
      auth: true,
      handle: (r) => {
        const message = botMessageIn(r.params.channel, r.params.message);
        if (message.author.id !== botUser.id) throw new ApiError(403, 50005, 'Cannot edit a message authored by another user');
        return ok(messages.edit(message.id, checkedMessageBody(r.body, r.files), r.files));
      },
    },
    {
      method: 'DELETE',
      pattern: '/channels/:channel/messages/:message',
      auth: true,
      handle: (r) => (messages.delete(botMessageIn(r.params.channel, r.params.message).id), { status: 204 }),
    },
    {
      method: 'POST',
      pattern: '/interactions/:id/:token/callback',
      auth: false,
      handle: (r) => interactions.callback(r.params.id, r.params.token, asRestRequest(r)),
    },
    { method: 'POST', pattern: '/webhooks/:app/:token', auth: false, handle: (r) => interactions.followUp(r.params.app, r.params.token, asRestRequest(r)) },
    { method: 'GET', pattern: '/webhooks/:app/:token/messages/:message', auth: false, handle: (r) => ok(interactions.fetch(r.params.app, r.params.token, r.params.message)) },
    {
      method: 'PATCH',
      pattern: '/webhooks/:app/:token/messages/:message',
      auth: false,
      handle: (r) => ok(interactions.edit(r.params.app, r.params.token, r.params.message, asRestRequest(r))),
    },
    {
      method: 'DELETE',
      pattern: '/webhooks/:app/:token/messages/:message',
      auth: false,
      handle: (r) => (interactions.delete(r.params.app, r.params.token, r.params.message, asRestRequest(r)), { status: 204 }),
    },
  ];

  const http = new HttpServer({
    routes,
    token,
    attachment: (channelId, attachmentId) => messages.file(channelId, attachmentId),
    upgrade: (request, socket, head) => {
      const path = new URL(request.url ?? '/', 'ws://fake').pathname;
      if (path !== GATEWAY_PATH && path !== RESUME_PATH) return false;
      gateway.handleUpgrade(request, socket, head);
      return true;
    },
    log: (entry) => {
      requestLog.push(entry);
      changes.notify();
    },
  });
  await http.listen(HOST);
  base = `http://${HOST}:${http.port}`;

  const describe = (): string => {
    const recent = requestLog.slice(-15).map((r) => `    ${r.method} ${r.url} → ${r.status}${r.error === undefined ? '' : ` ${JSON.stringify(r.error)}`}`);
    return [`  recent REST requests (${requestLog.length} in all):`, ...recent, gateway.describe()].join('\n');
  };

  let closed = false;
  return {
    url: `${base}/api`,
    gatewayUrl: `${base.replace(/^http/, 'ws')}${GATEWAY_PATH}`,
    token,
    applicationId,
    botUser,
    interact: (o) => interactions.create(o, (payload) => gateway.dispatch('INTERACTION_CREATE', payload)),
    dispatch: (event, data) => gateway.dispatch(event, data),
    disconnect: (o) => gateway.disconnect(o),
    requests: () => [...requestLog],
    registrations: () => [...commands.registrations],
    commands: (guildId) => commands.list(guildId ?? null),
    channelMessages: (channelId) => messages.inChannel(channelId),
    message: (id) => messages.get(id),
    gatewayEvents: () => [...gateway.events],
    waitFor: (probe, o = {}) => changes.waitFor(probe, o.timeoutMs ?? 2000, o.what ?? 'a condition on the fake', describe),
    describe,
    close: async () => {
      if (closed) return;
      closed = true;
      changes.close();
      await gateway.close();
      await http.close();
    },
  };
}
