/**
 * Interactions: what a user's slash command, autocomplete keystroke or button press looks like
 * on the gateway (INTERACTION_CREATE), and everything the bot answers through REST for it.
 *
 * An interaction has an id and a token. The bot acknowledges it once, within the deadline
 * (3 s), with `POST /interactions/{id}/{token}/callback`; after that it may use the token as a
 * webhook for 15 minutes: `PATCH|GET|DELETE /webhooks/{app}/{token}/messages/@original|{id}` and
 * follow-ups `POST /webhooks/{app}/{token}`. `@original` is the message the callback made
 * (types 4 and 5) or, for a button, the message the button is on (types 6 and 7).
 * (https://discord.com/developers/docs/interactions/receiving-and-responding)
 */
import {
  ApplicationCommandOptionType,
  ApplicationCommandType,
  ApplicationIntegrationType,
  ButtonStyle,
  ComponentType,
  InteractionContextType,
  InteractionResponseType,
  InteractionType,
  MessageFlags,
  MessageType,
  type APIApplicationCommand,
  type APIApplicationCommandInteractionDataBasicOption,
  type APIApplicationCommandInteractionDataOption,
  type APIApplicationCommandOption,
  type APIApplicationCommandOptionChoice,
  type APIInteraction,
  type APIInteractionDataResolved,
  type APIMessage,
  type APIMessageInteractionMetadata,
  type APIUser,
  type Locale,
} from 'discord.js';
import type { Changes } from './changes.ts';
import type { CommandRegistry } from './commands.ts';
import { alreadyAcknowledged, ApiError, emptyMessage, invalidFormBody, unknownInteraction, unknownMessage, unknownWebhook } from './errors.ts';
import { makeUser, type FakeGuild, type FakeUserSpec } from './guilds.ts';
import type { FakeFile, MessageOrigin, MessageStore } from './messages.ts';
import { randomToken, snowflake } from './snowflake.ts';
import { isObject, omit, type Json } from './json.ts';
import { checkChoices, checkedMessageBody, checkModal, isEmptyMessage, MAX_FILE_BYTES } from './validate.ts';

// ---------------------------------------------------------------------------------------------
// What a test asks for

/**
 * An option value. A plain number is an integer option when whole and a number option
 * otherwise, unless the command is registered with the fake, in which case the declared type
 * wins; `{ type, value }` says the type outright.
 */
export type OptionValue =
  | string
  | number
  | boolean
  | { readonly type: 'string'; readonly value: string }
  | { readonly type: 'integer' | 'number'; readonly value: number }
  | { readonly type: 'boolean'; readonly value: boolean }
  | { readonly type: 'user'; readonly id: string };

interface Where {
  /** Default: the first guild. */
  readonly guildId?: string;
  /** Default: the guild's first channel (for a button, the message's channel). */
  readonly channelId?: string;
  /** Who acts. Default: the guild's first listed member, else a user named `player`. */
  readonly user?: FakeUserSpec;
  /**
   * The member's permissions as the interaction carries them (`member.permissions`), e.g.
   * ADMIN_PERMISSIONS or MEMBER_PERMISSIONS. Default: computed from the guild's roles.
   */
  readonly permissions?: bigint | string;
  readonly locale?: string;
}

export interface CommandInvocation extends Where {
  readonly type: 'command';
  readonly name: string;
  readonly group?: string;
  readonly subcommand?: string;
  readonly options?: Readonly<Record<string, OptionValue>>;
}

export interface AutocompleteInvocation extends Where {
  readonly type: 'autocomplete';
  readonly name: string;
  readonly group?: string;
  readonly subcommand?: string;
  /** The other options filled in so far, and the focused one's partial text. */
  readonly options?: Readonly<Record<string, OptionValue>>;
  /** The option the user is typing in. */
  readonly focused: string;
}

export interface ButtonPress extends Where {
  readonly type: 'button';
  readonly customId: string;
  /**
   * The message the button is on: one the fake holds (a reply the bot made). It must have a
   * button with this custom id. Default: a message from the bot with just that button.
   */
  readonly messageId?: string;
}

export type InteractOptions = CommandInvocation | AutocompleteInvocation | ButtonPress;

// ---------------------------------------------------------------------------------------------
// What the bot answered

interface ResponseBase {
  /** Milliseconds from sending the interaction to this response. */
  readonly at: number;
  readonly method: string;
  /** The path after `/api/v10`, with the query. */
  readonly path: string;
  /** The JSON body, or a multipart body's `payload_json`. */
  readonly body: Json;
  /** Uploaded files, in field order. */
  readonly files: readonly FakeFile[];
}

export interface CallbackResponse extends ResponseBase {
  readonly kind: 'callback';
  /** 4 reply, 5 deferred reply, 6 deferred update, 7 update, 8 autocomplete result, 9 modal. */
  readonly type: InteractionResponseType;
  /** The message the callback made or changed (types 4, 5, 6, 7), as it was just after. */
  readonly message: APIMessage | undefined;
  /** The choices of an autocomplete result (type 8). */
  readonly choices: readonly APIApplicationCommandOptionChoice[] | undefined;
}

export interface EditResponse extends ResponseBase {
  readonly kind: 'edit';
  /** The id edited (`@original` resolved). */
  readonly messageId: string;
  readonly original: boolean;
  readonly message: APIMessage;
}

export interface FollowUpResponse extends ResponseBase {
  readonly kind: 'followup';
  readonly message: APIMessage;
}

export interface DeleteResponse extends ResponseBase {
  readonly kind: 'delete';
  readonly messageId: string;
  readonly original: boolean;
}

export type BotResponse = CallbackResponse | EditResponse | FollowUpResponse | DeleteResponse;

/** A response the fake refused, with the error it answered. */
export interface RejectedResponse {
  readonly at: number;
  readonly method: string;
  readonly path: string;
  readonly body: unknown;
  readonly status: number;
  readonly error: ReturnType<ApiError['toJSON']>;
}

/** What a test holds for one interaction it sent. */
export interface FakeInteraction {
  readonly id: string;
  readonly token: string;
  /** The INTERACTION_CREATE data as sent. */
  readonly payload: APIInteraction;
  /** Every response the fake accepted, in order. */
  responses(): readonly BotResponse[];
  /** Responses the fake refused (late, twice acknowledged, invalid), in order. */
  rejected(): readonly RejectedResponse[];
  /** The first response (already made or still to come) matching `predicate`; rejects after `timeoutMs` (default 2000). */
  waitForResponse<R extends BotResponse>(predicate: (r: BotResponse) => r is R, timeoutMs?: number): Promise<R>;
  waitForResponse(predicate?: (r: BotResponse) => boolean, timeoutMs?: number): Promise<BotResponse>;
  /** The original response as it is now (after every edit), if there is one. */
  original(): APIMessage | undefined;
  /** The follow-up messages as they are now. */
  followUps(): APIMessage[];
}

/** Predicates for `waitForResponse`. */
export const isCallback =
  (type?: InteractionResponseType) =>
  (r: BotResponse): r is CallbackResponse =>
    r.kind === 'callback' && (type === undefined || r.type === type);
export const isEdit = (r: BotResponse): r is EditResponse => r.kind === 'edit';
export const isFollowUp = (r: BotResponse): r is FollowUpResponse => r.kind === 'followup';
export const isDelete = (r: BotResponse): r is DeleteResponse => r.kind === 'delete';

// ---------------------------------------------------------------------------------------------

type Kind = InteractOptions['type'];

/** Which callback types each kind of interaction may answer with. */
const ALLOWED_CALLBACKS: Readonly<Record<Kind, readonly InteractionResponseType[]>> = {
  command: [InteractionResponseType.ChannelMessageWithSource, InteractionResponseType.DeferredChannelMessageWithSource, InteractionResponseType.Modal],
  autocomplete: [InteractionResponseType.ApplicationCommandAutocompleteResult],
  button: [
    InteractionResponseType.ChannelMessageWithSource,
    InteractionResponseType.DeferredChannelMessageWithSource,
    InteractionResponseType.DeferredMessageUpdate,
    InteractionResponseType.UpdateMessage,
    InteractionResponseType.Modal,
  ],
};

const DEFAULT_USER: FakeUserSpec = { id: '300000000000000001', username: 'player' };

/** A request as the routes hand it over. */
export interface RestRequest {
  readonly method: string;
  readonly path: string;
  readonly body: unknown;
  readonly files: readonly FakeFile[];
  readonly query: URLSearchParams;
}

export interface InteractionsDeps {
  readonly applicationId: string;
  readonly bot: APIUser;
  readonly guilds: ReadonlyMap<string, FakeGuild>;
  readonly messages: MessageStore;
  readonly commands: CommandRegistry;
  readonly changes: Changes;
  readonly deadlineMs: number;
}

class InteractionRecord implements FakeInteraction {
  readonly sentAt = Date.now();
  acknowledgedWith: InteractionResponseType | null = null;
  originalId: string | null = null;
  readonly followUpIds: string[] = [];
  readonly #responses: BotResponse[] = [];
  readonly #rejected: RejectedResponse[] = [];

  constructor(
    readonly id: string,
    readonly token: string,
    readonly kind: Kind,
    readonly payload: APIInteraction,
    readonly origin: MessageOrigin,
    /** For a button: the message it is on. */
    readonly componentMessageId: string | null,
    private readonly deps: InteractionsDeps,
  ) {}

  responses(): readonly BotResponse[] {
    return [...this.#responses];
  }

  rejected(): readonly RejectedResponse[] {
    return [...this.#rejected];
  }

  waitForResponse(predicate: (r: BotResponse) => boolean = () => true, timeoutMs = 2000): Promise<BotResponse> {
    return this.deps.changes.waitFor(
      () => this.#responses.find(predicate),
      timeoutMs,
      `a matching response to interaction ${this.id} (${this.kind})`,
      () => this.describe(),
    );
  }

  original(): APIMessage | undefined {
    return this.originalId === null ? undefined : this.deps.messages.get(this.originalId);
  }

  followUps(): APIMessage[] {
    return this.followUpIds.flatMap((id) => this.deps.messages.get(id) ?? []);
  }

  describe(): string {
    const lines = [`  responses so far: ${this.#responses.length === 0 ? 'none' : ''}`];
    for (const r of this.#responses) lines.push(`    +${r.at} ms ${r.kind}${r.kind === 'callback' ? ` type ${r.type}` : ''} ${JSON.stringify(r.body).slice(0, 200)}`);
    for (const r of this.#rejected) lines.push(`    +${r.at} ms REJECTED ${r.method} ${r.path} → ${r.status} ${JSON.stringify(r.error)}`);
    return lines.join('\n');
  }

  record(response: BotResponse): void {
    this.#responses.push(response);
    this.deps.changes.notify();
  }

  refuse(request: RestRequest, error: ApiError): void {
    this.#rejected.push({ at: this.elapsed(), method: request.method, path: request.path, body: request.body, status: error.status, error: error.toJSON() });
    this.deps.changes.notify();
  }

  elapsed(): number {
    return Date.now() - this.sentAt;
  }
}

export class Interactions {
  readonly #byId = new Map<string, InteractionRecord>();
  readonly #byToken = new Map<string, InteractionRecord>();
  /** Ids for commands the fake has not seen registered, stable per name. */
  readonly #commandIds = new Map<string, string>();

  constructor(private readonly deps: InteractionsDeps) {}

  /** Builds an interaction; `send` puts it on the gateway, and only then is it known to REST. */
  create(options: InteractOptions, send: (payload: APIInteraction) => void): FakeInteraction {
    const guild = this.#guild(options.guildId);
    const componentMessage = options.type === 'button' && options.messageId !== undefined ? this.#componentMessage(options.messageId, options.customId) : undefined;
    const channelId = options.channelId ?? componentMessage?.channel_id ?? guild.defaultChannelId;
    const channel = guild.channel(channelId);
    if (channel === undefined) throw new Error(`guild ${guild.id} has no channel ${channelId}`);
    const userSpec = options.user ?? this.#defaultUser(guild);
    const member = guild.member(userSpec);
    const permissions = options.permissions === undefined ? guild.permissionsOf(userSpec.id) : BigInt(options.permissions);
    const id = snowflake();
    const token = randomToken('fake-interaction');
    const interactionType = { command: InteractionType.ApplicationCommand, autocomplete: InteractionType.ApplicationCommandAutocomplete, button: InteractionType.MessageComponent }[options.type];

    const shared = {
      id,
      application_id: this.deps.applicationId,
      token,
      version: 1 as const,
      guild_id: guild.id,
      guild: { id: guild.id, locale: 'en-US' as Locale, features: [] },
      channel_id: channelId,
      channel: { ...channel },
      member: { ...guild.memberPayload(userSpec.id), permissions: permissions.toString() },
      app_permissions: guild.permissionsOf(this.deps.bot.id).toString(),
      locale: (options.locale ?? 'en-US') as Locale,
      guild_locale: 'en-US' as Locale,
      entitlements: [],
      authorizing_integration_owners: { [ApplicationIntegrationType.GuildInstall]: guild.id },
      context: InteractionContextType.Guild,
      attachment_size_limit: MAX_FILE_BYTES,
    };

    const onMessage =
      options.type !== 'button'
        ? undefined
        : (componentMessage ??
          this.deps.messages.create({ channelId, guildId: guild.id, author: this.deps.bot, type: MessageType.Default }, {
            content: '',
            components: [{ type: ComponentType.ActionRow, components: [{ type: ComponentType.Button, style: ButtonStyle.Primary, label: options.customId, custom_id: options.customId }] }],
          }, []));
    const origin: MessageOrigin = {
      channelId,
      guildId: guild.id,
      author: this.deps.bot,
      type: options.type === 'command' ? MessageType.ChatInputCommand : MessageType.Default,
      applicationId: this.deps.applicationId,
      interactionMetadata: {
        id,
        type: interactionType,
        user: member.user,
        authorizing_integration_owners: { [ApplicationIntegrationType.GuildInstall]: guild.id },
        ...(onMessage === undefined ? {} : { interacted_message_id: onMessage.id }),
      } as APIMessageInteractionMetadata,
    };

    let payload: APIInteraction;
    if (options.type === 'button') {
      payload = {
        ...shared,
        type: InteractionType.MessageComponent,
        data: { custom_id: options.customId, component_type: ComponentType.Button },
        message: onMessage as APIMessage,
      };
    } else {
      const command = this.deps.commands.find(guild.id, options.name);
      const resolved: APIInteractionDataResolved = {};
      const focused = options.type === 'autocomplete' ? options.focused : undefined;
      const values = { ...(focused !== undefined && !(focused in (options.options ?? {})) ? { [focused]: '' } : {}), ...options.options };
      const data = {
        id: command?.id ?? this.#commandId(options.name),
        name: options.name,
        type: ApplicationCommandType.ChatInput as const,
        options: this.#options(command, options, values, focused, guild, resolved),
        ...(Object.keys(resolved).length > 0 ? { resolved } : {}),
        ...(command?.guild_id === undefined ? {} : { guild_id: command.guild_id }),
      };
      payload =
        options.type === 'command'
          ? { ...shared, type: InteractionType.ApplicationCommand, data }
          : ({ ...shared, type: InteractionType.ApplicationCommandAutocomplete, data } as APIInteraction);
    }

    const record = new InteractionRecord(id, token, options.type, payload, origin, onMessage?.id ?? null, this.deps);
    send(structuredClone(payload));
    this.#byId.set(id, record);
    this.#byToken.set(token, record);
    return record;
  }

  /** `POST /interactions/{id}/{token}/callback` */
  callback(id: string, token: string, request: RestRequest): { status: 200; json: Json } | { status: 204 } {
    const record = this.#byId.get(id);
    if (record === undefined || record.token !== token) throw unknownInteraction();
    return this.#guarded(record, request, () => {
      if (record.elapsed() >= this.deps.deadlineMs) throw unknownInteraction();
      if (record.acknowledgedWith !== null) throw alreadyAcknowledged();
      const body = request.body;
      if (!isObject(body)) throw invalidFormBody([{ path: [], code: 'MODEL_TYPE_CONVERT', message: 'Only dictionaries may be used in a ModelType' }]);
      const type = body.type as InteractionResponseType;
      if (!ALLOWED_CALLBACKS[record.kind].includes(type)) {
        throw invalidFormBody([{ path: ['type'], code: 'INTERACTION_RESPONSE_TYPE_INVALID', message: `Response type ${String(type)} is not valid for a ${record.kind} interaction` }]);
      }
      const data = body.data;
      let message: APIMessage | undefined;
      let choices: APIApplicationCommandOptionChoice[] | undefined;
      switch (type) {
        case InteractionResponseType.ChannelMessageWithSource: {
          const d = checkedMessageBody(data, request.files, ['data']);
          if (isEmptyMessage(d, request.files.length)) throw emptyMessage();
          message = this.deps.messages.create(record.origin, d, request.files);
          record.originalId = message.id;
          break;
        }
        case InteractionResponseType.DeferredChannelMessageWithSource: {
          const flags = isObject(data) && typeof data.flags === 'number' ? data.flags : 0;
          message = this.deps.messages.createLoading(record.origin, (flags & MessageFlags.Ephemeral) !== 0);
          record.originalId = message.id;
          break;
        }
        case InteractionResponseType.DeferredMessageUpdate:
          record.originalId = record.componentMessageId;
          message = record.original();
          break;
        case InteractionResponseType.UpdateMessage: {
          const d = checkedMessageBody(data ?? {}, request.files, ['data']);
          message = this.deps.messages.edit(record.componentMessageId as string, d, request.files);
          record.originalId = record.componentMessageId;
          break;
        }
        case InteractionResponseType.ApplicationCommandAutocompleteResult: {
          const problems = checkChoices(data);
          if (problems.length > 0) throw invalidFormBody(problems);
          choices = (data as { choices: APIApplicationCommandOptionChoice[] }).choices;
          break;
        }
        case InteractionResponseType.Modal: {
          const problems = checkModal(data);
          if (problems.length > 0) throw invalidFormBody(problems);
          break;
        }
        default:
          break;
      }
      record.acknowledgedWith = type;
      record.record({ kind: 'callback', type, message, choices, at: record.elapsed(), method: request.method, path: request.path, body, files: request.files });
      if (request.query.get('with_response') !== 'true') return { status: 204 };
      const original = record.original();
      return {
        status: 200,
        json: {
          interaction: {
            id: record.id,
            type: record.payload.type,
            ...(original === undefined
              ? {}
              : {
                  response_message_id: original.id,
                  response_message_loading: ((original.flags ?? 0) & MessageFlags.Loading) !== 0,
                  response_message_ephemeral: ((original.flags ?? 0) & MessageFlags.Ephemeral) !== 0,
                }),
          },
          resource: { type, ...(message === undefined || type === InteractionResponseType.DeferredMessageUpdate ? {} : { message }) },
        },
      };
    });
  }

  /** `POST /webhooks/{app}/{token}`: a follow-up message. */
  followUp(applicationId: string, token: string, request: RestRequest): { status: 200; json: APIMessage } | { status: 204 } {
    const record = this.#webhook(applicationId, token);
    return this.#guarded(record, request, () => {
      if (record.acknowledgedWith === null || record.kind === 'autocomplete') throw unknownWebhook();
      const body = checkedMessageBody(request.body, request.files, []);
      if (isEmptyMessage(body, request.files.length)) throw emptyMessage();
      const message = this.deps.messages.create(record.origin, body, request.files);
      record.followUpIds.push(message.id);
      record.record({ kind: 'followup', message, at: record.elapsed(), method: request.method, path: request.path, body, files: request.files });
      return request.query.get('wait') === 'true' ? { status: 200, json: message } : { status: 204 };
    });
  }

  /** `GET /webhooks/{app}/{token}/messages/{id}` */
  fetch(applicationId: string, token: string, messageId: string): APIMessage {
    const record = this.#webhook(applicationId, token);
    return this.deps.messages.require(this.#messageId(record, messageId));
  }

  /** `PATCH /webhooks/{app}/{token}/messages/{id}` */
  edit(applicationId: string, token: string, messageId: string, request: RestRequest): APIMessage {
    const record = this.#webhook(applicationId, token);
    return this.#guarded(record, request, () => {
      const id = this.#messageId(record, messageId);
      const body = checkedMessageBody(request.body, request.files, []);
      const current = this.deps.messages.require(id);
      if (wouldBeEmpty(current, body, request.files.length)) throw emptyMessage();
      const message = this.deps.messages.edit(id, body, request.files);
      record.record({ kind: 'edit', messageId: id, original: id === record.originalId, message, at: record.elapsed(), method: request.method, path: request.path, body, files: request.files });
      return message;
    });
  }

  /** `DELETE /webhooks/{app}/{token}/messages/{id}` */
  delete(applicationId: string, token: string, messageId: string, request: RestRequest): void {
    const record = this.#webhook(applicationId, token);
    this.#guarded(record, request, () => {
      const id = this.#messageId(record, messageId);
      this.deps.messages.delete(id);
      const original = id === record.originalId;
      if (original) record.originalId = null;
      record.record({ kind: 'delete', messageId: id, original, at: record.elapsed(), method: request.method, path: request.path, body: {}, files: [] });
    });
  }

  #guarded<T>(record: InteractionRecord, request: RestRequest, respond: () => T): T {
    try {
      return respond();
    } catch (e) {
      if (e instanceof ApiError) record.refuse(request, e);
      throw e;
    }
  }

  #webhook(applicationId: string, token: string): InteractionRecord {
    const record = this.#byToken.get(token);
    if (record === undefined || applicationId !== this.deps.applicationId) throw unknownWebhook();
    return record;
  }

  /** `@original` or an id, as an id of a message this interaction's webhook made. */
  #messageId(record: InteractionRecord, messageId: string): string {
    if (messageId === '@original') {
      if (record.originalId === null) throw unknownMessage();
      return record.originalId;
    }
    if (messageId !== record.originalId && !record.followUpIds.includes(messageId)) throw unknownMessage();
    return messageId;
  }

  #guild(guildId: string | undefined): FakeGuild {
    const guild = guildId === undefined ? this.deps.guilds.values().next().value : this.deps.guilds.get(guildId);
    if (guild === undefined) throw new Error(guildId === undefined ? 'the fake has no guilds to interact in' : `the fake has no guild ${guildId}`);
    return guild;
  }

  #defaultUser(guild: FakeGuild): FakeUserSpec {
    const first = guild.firstMember();
    return first === undefined ? DEFAULT_USER : { id: first.id, username: first.username };
  }

  #componentMessage(messageId: string, customId: string): APIMessage {
    const message = this.deps.messages.get(messageId);
    if (message === undefined) throw new Error(`the fake holds no message ${messageId} to press a button on`);
    const buttons = (message.components ?? []).flatMap((row) => ('components' in row ? (row.components as unknown[]) : []));
    const button = buttons.find((b): b is Json => isObject(b) && b.type === ComponentType.Button && b.custom_id === customId);
    if (button === undefined) throw new Error(`message ${messageId} has no button with custom id ${customId}`);
    if (button.disabled === true) throw new Error(`the button ${customId} on message ${messageId} is disabled`);
    return message;
  }

  #commandId(name: string): string {
    let id = this.#commandIds.get(name);
    if (id === undefined) {
      id = snowflake();
      this.#commandIds.set(name, id);
    }
    return id;
  }

  /**
   * The options array of an invocation, wrapped in its subcommand (and group). With the command
   * registered, names, types, choices and required options are checked against it, since the
   * Discord client would never send anything else.
   */
  #options(
    command: APIApplicationCommand | undefined,
    invocation: CommandInvocation | AutocompleteInvocation,
    values: Readonly<Record<string, OptionValue>>,
    focused: string | undefined,
    guild: FakeGuild,
    resolved: APIInteractionDataResolved,
  ): APIApplicationCommandInteractionDataOption[] {
    const where = `/${[invocation.name, invocation.group, invocation.subcommand].filter((s) => s !== undefined).join(' ')}`;
    let declared: readonly APIApplicationCommandOption[] | undefined = command === undefined ? undefined : (command.options ?? []);
    for (const [level, name] of [['group', invocation.group], ['subcommand', invocation.subcommand]] as const) {
      if (name === undefined || declared === undefined) continue;
      const sub = declared.find((o) => o.name === name);
      if (sub === undefined || !('options' in sub)) throw new Error(`${where}: the registered command has no ${level} ${name}`);
      declared = (sub.options ?? []) as readonly APIApplicationCommandOption[];
    }
    const basic: APIApplicationCommandInteractionDataBasicOption[] = Object.entries(values).map(([name, value]) => {
      const declaration = declared?.find((o) => o.name === name);
      if (declared !== undefined && declaration === undefined) throw new Error(`${where}: the registered command has no option ${name}`);
      return this.#option(where, name, value, declaration, name === focused, guild, resolved);
    });
    if (declared !== undefined && focused === undefined) {
      for (const o of declared) {
        if ('required' in o && o.required === true && !(o.name in values)) throw new Error(`${where}: the required option ${o.name} is missing`);
      }
    }
    let options: APIApplicationCommandInteractionDataOption[] = basic;
    if (invocation.subcommand !== undefined) options = [{ type: ApplicationCommandOptionType.Subcommand, name: invocation.subcommand, options: basic }];
    if (invocation.group !== undefined) {
      if (invocation.subcommand === undefined) throw new Error(`${where}: a subcommand group needs a subcommand`);
      options = [{ type: ApplicationCommandOptionType.SubcommandGroup, name: invocation.group, options: options as never }];
    }
    return options;
  }

  #option(
    where: string,
    name: string,
    value: OptionValue,
    declaration: APIApplicationCommandOption | undefined,
    focused: boolean,
    guild: FakeGuild,
    resolved: APIInteractionDataResolved,
  ): APIApplicationCommandInteractionDataBasicOption {
    const T = ApplicationCommandOptionType;
    const explicit = typeof value === 'object' ? value.type : undefined;
    const raw = typeof value === 'object' ? ('value' in value ? value.value : value.id) : value;
    const inferred = { string: T.String, integer: T.Integer, number: T.Number, boolean: T.Boolean, user: T.User } as const;
    const type =
      declaration?.type ??
      (explicit !== undefined ? inferred[explicit] : typeof raw === 'string' ? T.String : typeof raw === 'boolean' ? T.Boolean : Number.isInteger(raw) ? T.Integer : T.Number);
    if (focused) {
      // While typing, the focused option holds the text so far, whatever its declared type.
      return { type: type as ApplicationCommandOptionType.String, name, value: String(raw), focused: true };
    }
    const wrong = (expected: string): Error => new Error(`${where}: option ${name} is ${T[type]} and needs ${expected}, not ${JSON.stringify(raw)}`);
    if (declaration !== undefined && 'choices' in declaration && declaration.choices !== undefined && declaration.choices.length > 0) {
      if (!declaration.choices.some((c) => c.value === raw)) throw new Error(`${where}: ${JSON.stringify(raw)} is not one of option ${name}'s choices`);
    }
    switch (type) {
      case T.String:
        if (typeof raw !== 'string') throw wrong('a string');
        return { type, name, value: raw };
      case T.Integer:
        if (typeof raw !== 'number' || !Number.isSafeInteger(raw)) throw wrong('a whole number');
        return { type, name, value: raw };
      case T.Number:
        if (typeof raw !== 'number' || !Number.isFinite(raw)) throw wrong('a number');
        return { type, name, value: raw };
      case T.Boolean:
        if (typeof raw !== 'boolean') throw wrong('true or false');
        return { type, name, value: raw };
      case T.User: {
        const member = guild.knownMember(String(raw));
        if (member === undefined) throw wrong(`a member of guild ${guild.id}`);
        const partial = omit(guild.memberPayload(member.user.id), ['user']);
        resolved.users = { ...resolved.users, [member.user.id]: makeUser({ id: member.user.id, username: member.user.username }) };
        resolved.members = { ...resolved.members, [member.user.id]: { ...partial, permissions: guild.permissionsOf(member.user.id).toString() } };
        return { type, name, value: member.user.id };
      }
      default:
        throw new Error(`${where}: option ${name} has type ${T[type]}, which the fake does not send`);
    }
  }
}

/** Whether applying an edit body would leave a message showing nothing. */
function wouldBeEmpty(current: APIMessage, body: Json, files: number): boolean {
  const pick = <K extends keyof APIMessage>(key: K): unknown => (key in body ? body[key] : current[key]);
  const attachments = 'attachments' in body ? body.attachments : current.attachments;
  return isEmptyMessage({ content: pick('content'), embeds: pick('embeds'), components: pick('components'), attachments, poll: pick('poll') }, files);
}
