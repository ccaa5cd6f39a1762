/**
 * The discord.js client the bot runs on, and the REST client the deploy script uses. An edge
 * module: it imports discord.js; the game core (src/rules/ to src/gomocup/) never does.
 *
 * ## Environment
 *
 * - `DISCORD_TOKEN`: the bot token. Set on the client here, so `client.login()` needs no
 *   argument and discord.js never falls back to reading `process.env` on its own (its Client
 *   constructor does that when no token is given).
 * - `DISCORD_API_URL`: another REST base, e.g. `http://127.0.0.1:PORT/api` for the end-to-end
 *   tests' fake (test/support/fakeDiscord). discord.js appends `/v10` and the route itself
 *   (`${api}/v${version}${route}`, @discordjs/rest `resolveRequest`), so the value must not end
 *   in a version; one that does is refused here rather than becoming `/v10/v10/...`. Empty means
 *   unset: the real `https://discord.com/api`.
 *
 * The gateway address is not configured: on login discord.js asks REST for `GET /gateway/bot`
 * and connects to the `url` that returns, so pointing REST somewhere points the gateway too.
 *
 * ## Decisions
 *
 * - Intents: `Guilds` only. Slash commands, autocomplete and buttons arrive as
 *   INTERACTION_CREATE whatever the intents; `Guilds` is there so the client caches guilds,
 *   channels and roles from GUILD_CREATE (`interaction.guild`, `interaction.channel`) and so
 *   `clientReady` waits for them. No privileged intent (members, presences, message content):
 *   the bot reads no messages and needs none, and Discord refuses a login asking for one the
 *   application is not granted (close code 4014).
 * - Mentions: replies may ping the users they name, never @everyone, @here or a role, whatever
 *   text ends up in a message (player names, descriptions typed by users).
 * - No compression: `zlib-sync` is not installed, so discord.js connects without
 *   `compress=zlib-stream` and the gateway speaks plain JSON text frames.
 */
import { Client, GatewayIntentBits, REST, type ClientOptions, type RESTOptions } from 'discord.js';

/** The environment variables the Discord edge reads (process.env fits). */
export interface DiscordEnv {
  readonly DISCORD_TOKEN?: string;
  readonly DISCORD_API_URL?: string;
}

/** The Discord API version every request and the gateway use. */
export const DISCORD_API_VERSION = '10';

export const BOT_INTENTS: readonly GatewayIntentBits[] = [GatewayIntentBits.Guilds];

/**
 * The REST base from `DISCORD_API_URL`, without a trailing `/`, or undefined when unset.
 * Throws a TypeError on a value discord.js could not use, so a bad setting fails at start-up.
 */
export function discordApiBase(env: DiscordEnv): string | undefined {
  const raw = nonEmpty(env.DISCORD_API_URL);
  if (raw === undefined) return undefined;
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new TypeError(`DISCORD_API_URL is not a URL: ${raw}`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new TypeError(`DISCORD_API_URL must be an http or https URL: ${raw}`);
  }
  if (url.search !== '' || url.hash !== '') {
    throw new TypeError(`DISCORD_API_URL must not have a query or fragment: ${raw}`);
  }
  const base = raw.replace(/\/+$/, '');
  if (/\/v\d+$/.test(base)) {
    throw new TypeError(
      `DISCORD_API_URL must not end in an API version (discord.js appends /v${DISCORD_API_VERSION}): ${raw}`,
    );
  }
  return base;
}

/** REST options for this bot: API v10, and the base from `DISCORD_API_URL` when set. */
export function restOptions(env: DiscordEnv): Partial<RESTOptions> {
  const api = discordApiBase(env);
  return api === undefined ? { version: DISCORD_API_VERSION } : { version: DISCORD_API_VERSION, api };
}

/** Client options for this bot; the token is not among them (see `createDiscordClient`). */
export function clientOptions(env: DiscordEnv): ClientOptions {
  return {
    intents: [...BOT_INTENTS],
    rest: restOptions(env),
    allowedMentions: { parse: ['users'], repliedUser: false },
  };
}

/**
 * A discord.js Client configured for this bot, not yet logged in. Its token is
 * `DISCORD_TOKEN` (or none), so `await client.login()` connects.
 */
export function createDiscordClient(env: DiscordEnv): Client {
  const client = new Client(clientOptions(env));
  client.token = nonEmpty(env.DISCORD_TOKEN) ?? null;
  return client;
}

/**
 * A REST client with the bot's token, for the deploy script (`PUT` of the command list). Throws
 * a TypeError when `DISCORD_TOKEN` is unset: every route it is for needs it.
 */
export function restFor(env: DiscordEnv): REST {
  const token = nonEmpty(env.DISCORD_TOKEN);
  if (token === undefined) throw new TypeError('DISCORD_TOKEN is not set');
  return new REST(restOptions(env)).setToken(token);
}

function nonEmpty(value: string | undefined): string | undefined {
  const trimmed = value?.trim();
  return trimmed === undefined || trimmed === '' ? undefined : trimmed;
}
