/**
 * The real discord.js Client (built by createDiscordClient) against the local fake Discord:
 * log in, answer slash commands, defer and edit with a PNG, autocomplete, buttons, deploy
 * commands over REST, survive a dropped connection and a restart. Also the fake's own answers to
 * requests discord.js would never send.
 */
import { once } from 'node:events';
import { createCanvas, loadImage } from 'canvas';
import {
  ActionRowBuilder,
  AttachmentBuilder,
  ButtonBuilder,
  ButtonStyle,
  DiscordAPIError,
  Events,
  GatewayCloseCodes,
  GatewayIntentBits,
  GatewayOpcodes,
  InteractionResponseType,
  MessageFlags,
  PermissionFlagsBits,
  Routes,
  SlashCommandBuilder,
  type Client,
  type Interaction,
} from 'discord.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WebSocket } from 'ws';
import { createDiscordClient, discordApiBase, restFor } from '../src/discord/client.ts';
import {
  ADMIN_PERMISSIONS,
  MEMBER_PERMISSIONS,
  isCallback,
  isDelete,
  isEdit,
  isFollowUp,
  parseMultipart,
  startFakeDiscord,
  type FakeDiscord,
} from './support/fakeDiscord/index.ts';

const GUILD = '110000000000000001';
const CHANNEL = '120000000000000001';
const OWNER = { id: '130000000000000001', username: 'owner' };
const PLAYER = { id: '130000000000000002', username: 'player' };
const BOT = { id: '140000000000000001', username: 'Go-Moku' };

/** A small PNG the handler attaches: 6 × 4 pixels of one colour. */
function png(colour: string): Buffer {
  const canvas = createCanvas(6, 4);
  const ctx = canvas.getContext('2d');
  ctx.fillStyle = colour;
  ctx.fillRect(0, 0, 6, 4);
  return canvas.toBuffer('image/png');
}

async function pixels(bytes: Buffer): Promise<{ width: number; height: number; rgb: [number, number, number] }> {
  const image = await loadImage(bytes);
  const canvas = createCanvas(image.width, image.height);
  const ctx = canvas.getContext('2d');
  ctx.drawImage(image, 0, 0);
  const d = ctx.getImageData(1, 1, 1, 1).data;
  return { width: image.width, height: image.height, rgb: [d[0], d[1], d[2]] };
}

/** The commands the test bot has, as the deploy script would send them. */
const COMMANDS = [
  new SlashCommandBuilder()
    .setName('hello')
    .setDescription('Say hello')
    .addIntegerOption((o) => o.setName('size').setDescription('Board size').setRequired(true))
    .addStringOption((o) => o.setName('colour').setDescription('Your colour').setAutocomplete(true))
    .addNumberOption((o) => o.setName('komi').setDescription('A number'))
    .addBooleanOption((o) => o.setName('public').setDescription('Show everyone')),
  new SlashCommandBuilder().setName('board').setDescription('Show the board'),
  new SlashCommandBuilder().setName('play').setDescription('Start a game'),
  new SlashCommandBuilder().setName('peek').setDescription('Reply, look, delete'),
  new SlashCommandBuilder().setName('announce').setDescription('Post a game in the channel'),
].map((b) => b.toJSON());

/**
 * A bot in miniature: handlers that only parse options, do a little, render and reply — the
 * shapes the real command files will have.
 */
async function handle(interaction: Interaction): Promise<void> {
  if (interaction.isAutocomplete()) {
    const typed = interaction.options.getFocused().toLowerCase();
    const colours = ['black', 'white', 'blue'].filter((c) => c.startsWith(typed));
    await interaction.respond(colours.map((c) => ({ name: c, value: c })));
    return;
  }
  if (interaction.isButton() && interaction.customId === 'join') {
    await interaction.deferUpdate();
    await interaction.editReply({ content: `${interaction.user.username} joined`, components: [] });
    return;
  }
  if (interaction.isButton()) {
    await interaction.update({ content: `moved at ${interaction.customId.slice('move:'.length)}`, components: [] });
    return;
  }
  if (!interaction.isChatInputCommand()) return;
  switch (interaction.commandName) {
    case 'hello': {
      const size = interaction.options.getInteger('size', true);
      const colour = interaction.options.getString('colour') ?? 'black';
      const komi = interaction.options.getNumber('komi') ?? 0;
      const shown = interaction.options.getBoolean('public') ?? false;
      const admin = interaction.memberPermissions?.has(PermissionFlagsBits.Administrator) ?? false;
      await interaction.reply({
        content: `hello ${interaction.user.username}: size ${size}, ${colour}, komi ${komi}, admin ${admin} in ${interaction.guild?.name}`,
        flags: shown ? undefined : MessageFlags.Ephemeral,
      });
      return;
    }
    case 'board': {
      await interaction.deferReply();
      const file = new AttachmentBuilder(png('#ff0000'), { name: 'board.png', description: 'the board' });
      await interaction.editReply({ content: 'your board', files: [file] });
      await interaction.followUp({ content: 'good luck', flags: MessageFlags.Ephemeral });
      return;
    }
    case 'peek': {
      const response = await interaction.reply({ content: 'a peek', withResponse: true });
      const fetched = await interaction.fetchReply();
      if (fetched.id !== response.resource?.message?.id) throw new Error('fetchReply found another message');
      await interaction.deleteReply();
      return;
    }
    case 'announce': {
      await interaction.deferReply({ flags: MessageFlags.Ephemeral });
      const join = new ButtonBuilder().setCustomId('join').setLabel('Join').setStyle(ButtonStyle.Success);
      if (!interaction.channel?.isSendable()) throw new Error('cannot send in this channel');
      await interaction.channel.send({ content: 'a game is starting', components: [new ActionRowBuilder<ButtonBuilder>().addComponents(join)] });
      await interaction.editReply('announced');
      return;
    }
    case 'play': {
      const row = new ActionRowBuilder<ButtonBuilder>().addComponents(
        new ButtonBuilder().setCustomId('move:j10').setLabel('j10').setStyle(ButtonStyle.Primary),
        new ButtonBuilder().setCustomId('move:k10').setLabel('k10').setStyle(ButtonStyle.Secondary),
      );
      await interaction.reply({ content: 'your move', components: [row] });
      return;
    }
  }
}

interface Bot {
  readonly client: Client;
  readonly errors: unknown[];
}

/** Logs a fresh client in against the fake and waits for `clientReady`. */
async function startBot(fake: FakeDiscord): Promise<Bot> {
  const client = createDiscordClient({ DISCORD_TOKEN: fake.token, DISCORD_API_URL: fake.url });
  const errors: unknown[] = [];
  client.on(Events.Error, (e) => errors.push(e));
  client.on(Events.InteractionCreate, (interaction) => {
    handle(interaction).catch((e: unknown) => errors.push(e));
  });
  const ready = once(client, Events.ClientReady);
  await client.login();
  await ready;
  return { client, errors };
}

describe('discord.js against the fake Discord', () => {
  let fake: FakeDiscord;
  let bot: Bot;

  beforeAll(async () => {
    fake = await startFakeDiscord({
      guilds: [{ id: GUILD, name: 'Go-Moku club', ownerId: OWNER.id, members: [PLAYER, OWNER], channels: [{ id: CHANNEL, name: 'gomoku' }] }],
      botUser: BOT,
    });
    bot = await startBot(fake);
  });

  afterAll(async () => {
    await bot?.client.destroy();
    await fake?.close();
  });

  it('logs in through GET /gateway/bot and IDENTIFY, asking for the Guilds intent only', () => {
    expect(fake.requests()[0]).toMatchObject({ method: 'GET', url: '/api/v10/gateway/bot', status: 200 });
    const opened = fake.gatewayEvents().find((e) => e.kind === 'open');
    expect(opened?.detail).toBe('/gateway?v=10&encoding=json');
    const identify = fake.gatewayEvents().filter((e) => e.kind === 'identify');
    expect(identify).toHaveLength(1);
    expect(identify[0].intents).toBe(GatewayIntentBits.Guilds);
    expect(bot.client.user?.id).toBe(BOT.id);
    expect(bot.client.application?.id).toBe(fake.applicationId);
    const guild = bot.client.guilds.cache.get(GUILD);
    expect(guild?.available).toBe(true);
    expect(guild?.name).toBe('Go-Moku club');
    expect(guild?.channels.cache.get(CHANNEL)?.name).toBe('gomoku');
    expect(guild?.roles.everyone.id).toBe(GUILD);
  });

  it('answers a slash command with a text reply, reading typed options and member permissions', async () => {
    const asPlayer = fake.interact({
      type: 'command',
      name: 'hello',
      user: PLAYER,
      permissions: MEMBER_PERMISSIONS,
      options: { size: 15, colour: 'white', komi: { type: 'number', value: 2 }, public: true },
    });
    const reply = await asPlayer.waitForResponse(isCallback(InteractionResponseType.ChannelMessageWithSource));
    expect(reply.message?.content).toBe('hello player: size 15, white, komi 2, admin false in Go-Moku club');
    expect(reply.message?.flags ?? 0).toBe(0);
    expect(asPlayer.original()?.content).toBe(reply.message?.content);

    const asOwner = fake.interact({ type: 'command', name: 'hello', user: OWNER, permissions: ADMIN_PERMISSIONS, options: { size: 19 } });
    const ownerReply = await asOwner.waitForResponse(isCallback(InteractionResponseType.ChannelMessageWithSource));
    expect(ownerReply.message?.content).toBe('hello owner: size 19, black, komi 0, admin true in Go-Moku club');
    expect(ownerReply.message?.flags).toBe(MessageFlags.Ephemeral);
    expect(bot.errors).toEqual([]);
  });

  it('defers, then edits the reply with a PNG the fake decodes, then follows up', async () => {
    const board = fake.interact({ type: 'command', name: 'board', user: PLAYER });
    const deferred = await board.waitForResponse(isCallback(InteractionResponseType.DeferredChannelMessageWithSource));
    expect(deferred.message?.flags).toBe(MessageFlags.Loading);

    const edit = await board.waitForResponse(isEdit);
    // discord.js sends `@original` percent-encoded (Routes.webhookMessage encodes the id).
    expect(edit.path).toMatch(new RegExp(`^/webhooks/${fake.applicationId}/[^/]+/messages/%40original`));
    expect(edit.original).toBe(true);
    expect(edit.body.content).toBe('your board');
    expect(edit.files).toHaveLength(1);
    expect(edit.files[0]).toMatchObject({ field: 'files[0]', name: 'board.png', contentType: 'image/png' });
    expect(await pixels(edit.files[0].bytes)).toEqual({ width: 6, height: 4, rgb: [255, 0, 0] });

    const attachment = edit.message.attachments[0];
    expect(attachment).toMatchObject({ filename: 'board.png', width: 6, height: 4, description: 'the board', size: edit.files[0].bytes.length });
    expect(edit.message.flags ?? 0).toBe(0);
    const served = Buffer.from(await (await fetch(attachment.url)).arrayBuffer());
    expect(served.equals(edit.files[0].bytes)).toBe(true);

    const followUp = await board.waitForResponse(isFollowUp);
    expect(followUp.message.content).toBe('good luck');
    expect(followUp.message.flags).toBe(MessageFlags.Ephemeral);
    expect(board.original()?.content).toBe('your board');
    expect(board.followUps().map((m) => m.content)).toEqual(['good luck']);
    expect(board.rejected()).toEqual([]);
    expect(bot.errors).toEqual([]);
  });

  it('answers autocomplete with the choices that fit what was typed', async () => {
    const typing = fake.interact({ type: 'autocomplete', name: 'hello', focused: 'colour', options: { size: 15, colour: 'bl' } });
    const result = await typing.waitForResponse(isCallback(InteractionResponseType.ApplicationCommandAutocompleteResult));
    expect(result.choices).toEqual([
      { name: 'black', value: 'black' },
      { name: 'blue', value: 'blue' },
    ]);
  });

  it('handles a press of a button on its own reply by updating that message', async () => {
    const play = fake.interact({ type: 'command', name: 'play', user: PLAYER });
    await play.waitForResponse(isCallback(InteractionResponseType.ChannelMessageWithSource));
    const message = play.original();
    expect(message?.components).toHaveLength(1);

    const press = fake.interact({ type: 'button', customId: 'move:k10', messageId: message?.id, user: PLAYER });
    const update = await press.waitForResponse(isCallback(InteractionResponseType.UpdateMessage));
    expect(update.message?.id).toBe(message?.id);
    expect(update.message?.content).toBe('moved at k10');
    expect(fake.message(message?.id ?? '')?.components).toEqual([]);
    // The fake refuses to press a button that is no longer there.
    expect(() => fake.interact({ type: 'button', customId: 'move:j10', messageId: message?.id })).toThrow(/no button/);
    expect(bot.errors).toEqual([]);
  });

  it('answers the other ways discord.js offers: with_response, fetch and delete, ephemeral defer, channel message, deferred update', async () => {
    const peek = fake.interact({ type: 'command', name: 'peek' });
    const deleted = await peek.waitForResponse(isDelete);
    expect(deleted.original).toBe(true);
    expect(peek.responses().map((r) => r.kind)).toEqual(['callback', 'delete']);
    expect(peek.responses()[0].path).toContain('with_response=true');
    expect(peek.original()).toBeUndefined();

    const announce = fake.interact({ type: 'command', name: 'announce', user: OWNER });
    await announce.waitForResponse(isEdit);
    expect(announce.original()).toMatchObject({ content: 'announced', flags: MessageFlags.Ephemeral });
    const posted = fake.channelMessages(CHANNEL).find((m) => m.content === 'a game is starting');
    expect(posted?.author.id).toBe(BOT.id);

    const join = fake.interact({ type: 'button', customId: 'join', messageId: posted?.id, user: PLAYER });
    const edit = await join.waitForResponse(isEdit);
    expect(join.responses()[0]).toMatchObject({ kind: 'callback', type: InteractionResponseType.DeferredMessageUpdate });
    expect(edit.messageId).toBe(posted?.id);
    expect(fake.message(posted?.id ?? '')).toMatchObject({ content: 'player joined', components: [] });
    expect(bot.errors).toEqual([]);
  });

  it('takes a deploy of guild and global commands over REST and checks invocations against them', async () => {
    const rest = restFor({ DISCORD_TOKEN: fake.token, DISCORD_API_URL: fake.url });
    const created = (await rest.put(Routes.applicationGuildCommands(fake.applicationId, GUILD), { body: COMMANDS })) as { id: string; name: string }[];
    expect(created.map((c) => c.name)).toEqual(['hello', 'board', 'play', 'peek', 'announce']);
    await rest.put(Routes.applicationCommands(fake.applicationId), { body: [] });

    const [guildPut, globalPut] = fake.registrations();
    expect(guildPut).toMatchObject({ method: 'PUT', guildId: GUILD, body: JSON.parse(JSON.stringify(COMMANDS)) });
    expect(globalPut).toMatchObject({ method: 'PUT', guildId: null, commands: [] });
    expect(fake.commands(GUILD).map((c) => c.id)).toEqual(created.map((c) => c.id));

    // A second deploy keeps the ids, as Discord does.
    const again = (await rest.put(Routes.applicationGuildCommands(fake.applicationId, GUILD), { body: COMMANDS })) as { id: string }[];
    expect(again.map((c) => c.id)).toEqual(created.map((c) => c.id));

    // Invocations now carry the registered id, and are checked against the declared options.
    const hello = fake.interact({ type: 'command', name: 'hello', options: { size: 15 } });
    expect(hello.payload.data).toMatchObject({ id: created[0].id, name: 'hello' });
    await hello.waitForResponse(isCallback(InteractionResponseType.ChannelMessageWithSource));
    expect(() => fake.interact({ type: 'command', name: 'hello', options: {} })).toThrow(/required option size/);
    expect(() => fake.interact({ type: 'command', name: 'hello', options: { size: 15, colour: 3 } })).toThrow(/String/);

    // Discord's checks: a name with capitals is refused with 50035 and a path to the field.
    const bad = rest.put(Routes.applicationGuildCommands(fake.applicationId, GUILD), { body: [{ name: 'Hello', description: 'x' }] });
    await expect(bad).rejects.toBeInstanceOf(DiscordAPIError);
    await expect(bad).rejects.toMatchObject({ code: 50035, rawError: { errors: { 0: { name: { _errors: [{ code: 'APPLICATION_COMMAND_INVALID_NAME' }] } } } } });
    // A wrong token is a 401.
    const stranger = restFor({ DISCORD_TOKEN: 'not-the-token', DISCORD_API_URL: fake.url });
    await expect(stranger.get(Routes.applicationCommands(fake.applicationId))).rejects.toMatchObject({ status: 401 });
  });

  it('resumes after the gateway drops, replaying an interaction sent while it was down', async () => {
    const identifies = fake.gatewayEvents().filter((e) => e.kind === 'identify').length;
    await fake.disconnect();
    const during = fake.interact({ type: 'command', name: 'play' });
    await during.waitForResponse(isCallback(InteractionResponseType.ChannelMessageWithSource), 3000);
    const events = fake.gatewayEvents();
    const sent = events.filter((e) => e.kind === 'dispatch' && e.detail === 'INTERACTION_CREATE').at(-1);
    expect(sent?.connection).toBe(0); // no socket: kept for the resume
    expect(events.find((e) => e.kind === 'resume')?.detail).toBe('replayed INTERACTION_CREATE');
    const reopened = events.filter((e) => e.kind === 'open').at(-1);
    expect(reopened?.detail).toBe('/gateway-resume?v=10&encoding=json');
    expect(events.some((e) => e.kind === 'dispatch' && e.detail === 'RESUMED')).toBe(true);
    expect(events.filter((e) => e.kind === 'identify')).toHaveLength(identifies);
    expect(bot.errors).toEqual([]);
  });

  it('serves a restarted bot: the old session ends, a new IDENTIFY gets interactions', async () => {
    await bot.client.destroy();
    await fake.waitFor(() => (fake.gatewayEvents().some((e) => e.kind === 'close' && e.by === 'client' && e.code === 1000) ? true : undefined), { what: 'the old client to close' });
    expect(() => fake.interact({ type: 'command', name: 'board' })).toThrow(/no bot session/);

    bot = await startBot(fake);
    expect(fake.gatewayEvents().filter((e) => e.kind === 'identify')).toHaveLength(2);
    const hello = fake.interact({ type: 'command', name: 'hello', user: PLAYER, options: { size: 15 } });
    const reply = await hello.waitForResponse(isCallback(InteractionResponseType.ChannelMessageWithSource));
    expect(reply.message?.content).toContain('hello player: size 15');
    expect(bot.errors).toEqual([]);
  });
});

interface GatewayPayload {
  readonly op: number;
  readonly d: any; // eslint-disable-line @typescript-eslint/no-explicit-any -- raw protocol payloads in a test
  readonly s: number | null;
  readonly t: string | null;
}

/** A bare WebSocket client, to speak the gateway protocol by hand. */
interface RawGateway {
  next(): Promise<GatewayPayload>;
  send(payload: object): void;
  /** The close code, once the server closes. */
  readonly closed: Promise<number>;
  close(): Promise<void>;
}

async function rawGateway(url: string): Promise<RawGateway> {
  const ws = new WebSocket(url);
  const queue: GatewayPayload[] = [];
  const waiting: { resolve: (p: GatewayPayload) => void; reject: (e: Error) => void }[] = [];
  ws.on('message', (data) => {
    const payload = JSON.parse(String(data)) as GatewayPayload;
    const waiter = waiting.shift();
    if (waiter === undefined) queue.push(payload);
    else waiter.resolve(payload);
  });
  const closed = new Promise<number>((resolve) => {
    ws.on('close', (code) => {
      for (const w of waiting.splice(0)) w.reject(new Error(`gateway closed with ${code}`));
      resolve(code);
    });
  });
  await once(ws, 'open');
  return {
    next: () => {
      const queued = queue.shift();
      if (queued !== undefined) return Promise.resolve(queued);
      if (ws.readyState !== WebSocket.OPEN) return Promise.reject(new Error('gateway closed'));
      return new Promise((resolve, reject) => waiting.push({ resolve, reject }));
    },
    send: (payload) => ws.send(JSON.stringify(payload)),
    closed,
    close: async () => {
      if (ws.readyState === WebSocket.CLOSED) return;
      ws.close(1000);
      await closed;
    },
  };
}

const IDENTIFY = (token: string, intents: number = GatewayIntentBits.Guilds): object => ({
  op: GatewayOpcodes.Identify,
  d: { token, intents, properties: { os: 'linux', browser: 'test', device: 'test' } },
});

describe('the fake Discord on its own', () => {
  let fake: FakeDiscord;

  beforeAll(async () => {
    fake = await startFakeDiscord({ guilds: [{ id: GUILD, name: 'club', ownerId: OWNER.id, channels: [{ id: CHANNEL, name: 'gomoku' }] }], botUser: BOT });
  });

  afterAll(async () => {
    await fake?.close();
  });

  const call = async (method: string, path: string, init: { body?: string | FormData; type?: string; auth?: boolean } = {}): Promise<{ status: number; json: any }> => { // eslint-disable-line @typescript-eslint/no-explicit-any
    const headers: Record<string, string> = {};
    if (init.type !== undefined) headers['Content-Type'] = init.type;
    if (init.auth !== false) headers.Authorization = `Bot ${fake.token}`;
    const res = await fetch(`${fake.url}/v10${path}`, { method, headers, body: init.body });
    const text = await res.text();
    return { status: res.status, json: text === '' ? undefined : JSON.parse(text) };
  };
  const json = (value: unknown): { body: string; type: string; auth: false } => ({ body: JSON.stringify(value), type: 'application/json', auth: false });

  it('answers unknown routes, wrong methods and bad bodies with Discord-shaped JSON errors', async () => {
    expect(await call('GET', '/nowhere')).toEqual({ status: 404, json: { message: '404: Not Found', code: 0 } });
    expect(await call('DELETE', '/gateway/bot')).toEqual({ status: 405, json: { message: '405: Method Not Allowed', code: 0 } });
    expect(await call('GET', '/gateway/bot', { auth: false })).toEqual({ status: 401, json: { message: '401: Unauthorized', code: 0 } });
    expect(await call('PUT', `/applications/${fake.applicationId}/commands`, { body: '{nope', type: 'application/json' })).toMatchObject({ status: 400, json: { code: 50109 } });
    expect(await call('PUT', `/applications/${fake.applicationId}/commands`, { body: '--x\r\nbroken', type: 'multipart/form-data; boundary=x' })).toMatchObject({ status: 400, json: { code: 0 } });
    expect(await call('PUT', `/applications/${fake.applicationId}/guilds/999/commands`, { body: '[]', type: 'application/json' })).toMatchObject({ status: 403, json: { code: 50001 } });
    expect(await call('POST', '/interactions/1/2/callback', json({ type: 4, data: { content: 'x' } }))).toMatchObject({ status: 404, json: { code: 10062 } });
    const logged = fake.requests().find((r) => r.url.endsWith('/nowhere'));
    expect(logged).toMatchObject({ method: 'GET', status: 404, route: undefined });
  });

  it('refuses to send an interaction when no bot is connected', () => {
    expect(() => fake.interact({ type: 'command', name: 'hello' })).toThrow(/no bot session/);
  });

  it('closes the gateway with Discord close codes for a bad version, token, intent or order', async () => {
    const bad = async (query: string, payload?: object): Promise<number> => {
      const gw = await rawGateway(`${fake.gatewayUrl}?${query}`);
      if (payload !== undefined) {
        expect((await gw.next()).op).toBe(GatewayOpcodes.Hello);
        gw.send(payload);
      }
      return gw.closed;
    };
    expect(await bad('v=9&encoding=json')).toBe(GatewayCloseCodes.InvalidAPIVersion);
    expect(await bad('v=10&encoding=json&compress=zlib-stream')).toBe(GatewayCloseCodes.DecodeError);
    expect(await bad('v=10&encoding=json', IDENTIFY('wrong'))).toBe(GatewayCloseCodes.AuthenticationFailed);
    expect(await bad('v=10&encoding=json', IDENTIFY(fake.token, GatewayIntentBits.Guilds | GatewayIntentBits.GuildMembers))).toBe(GatewayCloseCodes.DisallowedIntents);
    expect(await bad('v=10&encoding=json', { op: GatewayOpcodes.PresenceUpdate, d: {} })).toBe(GatewayCloseCodes.NotAuthenticated);
    expect(await bad('v=10&encoding=json', { op: 99, d: null })).toBe(GatewayCloseCodes.UnknownOpcode);
  });

  it('speaks the gateway protocol, and holds a bot to the rules of answering interactions', async () => {
    const gw = await rawGateway(`${fake.gatewayUrl}?v=10&encoding=json`);
    const hello = await gw.next();
    expect(hello).toMatchObject({ op: GatewayOpcodes.Hello, d: { heartbeat_interval: 41_250 } });
    gw.send(IDENTIFY(fake.token));
    const ready = await gw.next();
    expect(ready).toMatchObject({ op: 0, t: 'READY', s: 1, d: { v: 10, user: { id: BOT.id, bot: true }, application: { id: fake.applicationId }, guilds: [{ id: GUILD, unavailable: true }] } });
    expect(ready.d.resume_gateway_url).toMatch(/^ws:\/\/127\.0\.0\.1:\d+\/gateway-resume$/);
    const guildCreate = await gw.next();
    expect(guildCreate).toMatchObject({ t: 'GUILD_CREATE', s: 2, d: { id: GUILD, unavailable: false, roles: [{ id: GUILD, name: '@everyone' }, { managed: true, tags: { bot_id: BOT.id } }] } });
    gw.send({ op: GatewayOpcodes.Heartbeat, d: 2 });
    expect(await gw.next()).toMatchObject({ op: GatewayOpcodes.HeartbeatAck });

    const i = fake.interact({ type: 'command', name: 'hello', user: PLAYER, options: { size: 15 } });
    const created = await gw.next();
    expect(created).toMatchObject({ t: 'INTERACTION_CREATE', s: 3, d: { id: i.id, token: i.token, type: 2, entitlements: [], authorizing_integration_owners: { 0: GUILD }, member: { user: { id: PLAYER.id } } } });
    expect(created.d.data.options).toEqual([{ type: 4, name: 'size', value: 15 }]);

    const callback = `/interactions/${i.id}/${i.token}/callback`;
    const long = await call('POST', callback, json({ type: 4, data: { content: 'x'.repeat(2001) } }));
    expect(long).toMatchObject({ status: 400, json: { code: 50035, errors: { data: { content: { _errors: [{ code: 'BASE_TYPE_MAX_LENGTH' }] } } } } });
    const row = (id: string): object => ({ type: 1, components: [{ type: 2, style: 1, label: id, custom_id: id }] });
    const rows = await call('POST', callback, json({ type: 4, data: { components: [row('a'), row('b'), row('c'), row('d'), row('e'), row('a')] } }));
    expect(rows.json.errors.data.components._errors[0].code).toBe('BASE_TYPE_MAX_LENGTH');
    expect(rows.json.errors.data.components['5'].components['0'].custom_id._errors[0].code).toBe('COMPONENT_CUSTOM_ID_DUPLICATED');
    expect(await call('POST', callback, json({ type: 8, data: { choices: [] } }))).toMatchObject({ status: 400, json: { code: 50035 } });
    expect(await call('POST', callback, json({ type: 4, data: {} }))).toMatchObject({ status: 400, json: { code: 50006 } });

    // A reply with a file, sent as multipart by hand.
    const form = new FormData();
    form.append('files[0]', new Blob([png('#0000ff')], { type: 'image/png' }), 'stone.png');
    form.append('payload_json', JSON.stringify({ type: 4, data: { content: 'here', attachments: [{ id: 0 }] } }));
    expect(await call('POST', `${callback}?with_response=true`, { body: form, auth: false })).toMatchObject({
      status: 200,
      json: { interaction: { id: i.id, type: 2, response_message_loading: false }, resource: { type: 4, message: { content: 'here', attachments: [{ filename: 'stone.png', width: 6 }] } } },
    });
    const [reply] = i.responses();
    expect(reply.files[0].name).toBe('stone.png');
    expect((await pixels(reply.files[0].bytes)).rgb).toEqual([0, 0, 255]);
    expect(await call('POST', callback, json({ type: 4, data: { content: 'again' } }))).toMatchObject({ status: 400, json: { code: 40060 } });
    expect(i.rejected().map((r) => r.error.code)).toEqual([50035, 50035, 50035, 50006, 40060]);

    // The webhook: edit @original, an unknown message, a follow-up.
    const webhook = `/webhooks/${fake.applicationId}/${i.token}`;
    expect(await call('PATCH', `${webhook}/messages/@original`, json({ content: 'edited' }))).toMatchObject({ status: 200, json: { content: 'edited' } });
    expect(await call('PATCH', `${webhook}/messages/123`, json({ content: 'x' }))).toMatchObject({ status: 404, json: { code: 10008 } });
    expect(await call('POST', `${webhook}?wait=true`, json({ content: 'more' }))).toMatchObject({ status: 200, json: { content: 'more' } });
    expect(i.original()?.content).toBe('edited');
    expect(i.original()?.attachments).toHaveLength(1);

    // A session closed by the server without resume is refused on RESUME.
    await fake.disconnect({ resumable: false });
    const again = await rawGateway(`${ready.d.resume_gateway_url}?v=10&encoding=json`);
    expect((await again.next()).op).toBe(GatewayOpcodes.Hello);
    again.send({ op: GatewayOpcodes.Resume, d: { token: fake.token, session_id: ready.d.session_id, seq: 3 } });
    expect(await again.next()).toMatchObject({ op: GatewayOpcodes.InvalidSession, d: false });
    await again.close();
    await gw.close();
  });

  it('refuses a callback after the deadline as Discord does (10062 Unknown interaction)', async () => {
    const strict = await startFakeDiscord({ guilds: [{ id: GUILD, name: 'club', ownerId: OWNER.id }], interactionDeadlineMs: 0 });
    try {
      const gw = await rawGateway(`${strict.gatewayUrl}?v=10&encoding=json`);
      await gw.next();
      gw.send(IDENTIFY(strict.token));
      await strict.waitFor(() => (strict.gatewayEvents().some((e) => e.detail === 'GUILD_CREATE') ? true : undefined));
      const late = strict.interact({ type: 'command', name: 'hello' });
      const res = await fetch(`${strict.url}/v10/interactions/${late.id}/${late.token}/callback`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({ type: 5 }),
      });
      expect(res.status).toBe(404);
      expect(await res.json()).toEqual({ message: 'Unknown interaction', code: 10062 });
      await expect(late.waitForResponse(undefined, 50)).rejects.toThrow(/timed out after 50 ms[\s\S]*REJECTED POST/);
      await gw.close();
    } finally {
      await strict.close();
    }
  });

  it('parses multipart bodies byte for byte', () => {
    const bytes = Buffer.from([0x89, 0x50, 0x0d, 0x0a, 0x2d, 0x2d, 0x00, 0xff]);
    const body = Buffer.concat([
      Buffer.from('--b\r\nContent-Disposition: form-data; name="files[0]"; filename="a%22b.png"\r\nContent-Type: image/png\r\n\r\n'),
      bytes,
      Buffer.from('\r\n--b\r\nContent-Disposition: form-data; name="payload_json"\r\n\r\n{"content":"hi"}\r\n--b--\r\n'),
    ]);
    const parts = parseMultipart(body, 'b');
    expect(parts.map((p) => [p.name, p.filename, p.contentType])).toEqual([
      ['files[0]', 'a"b.png', 'image/png'],
      ['payload_json', undefined, undefined],
    ]);
    expect(parts[0].data.equals(bytes)).toBe(true);
    expect(parts[1].data.toString()).toBe('{"content":"hi"}');
  });
});

describe('createDiscordClient and restFor', () => {
  it('read DISCORD_API_URL as the base discord.js appends /v10 to, and refuse one with a version', () => {
    expect(discordApiBase({})).toBeUndefined();
    expect(discordApiBase({ DISCORD_API_URL: '  ' })).toBeUndefined();
    expect(discordApiBase({ DISCORD_API_URL: 'http://127.0.0.1:5/api/' })).toBe('http://127.0.0.1:5/api');
    expect(() => discordApiBase({ DISCORD_API_URL: 'http://127.0.0.1:5/api/v10' })).toThrow(/must not end in an API version/);
    expect(() => discordApiBase({ DISCORD_API_URL: 'discord' })).toThrow(/not a URL/);
    expect(() => restFor({ DISCORD_TOKEN: '' })).toThrow(/DISCORD_TOKEN is not set/);
    const client = createDiscordClient({ DISCORD_TOKEN: 't', DISCORD_API_URL: 'http://127.0.0.1:5/api' });
    expect(client.options.rest?.api).toBe('http://127.0.0.1:5/api');
    expect(client.options.intents.bitfield).toBe(GatewayIntentBits.Guilds);
    expect(client.token).toBe('t');
  });
});

describe('after every client and fake has closed', () => {
  it('leaves no socket or server open', async () => {
    // Closing finishes in libuv's close phase, a loop turn or two after `close()` resolves.
    const open = (): string[] => process.getActiveResourcesInfo().filter((r) => r.startsWith('TCP'));
    for (let turn = 0; turn < 100 && open().length > 0; turn++) await new Promise((resolve) => setImmediate(resolve));
    expect(open()).toEqual([]);
  });
});
