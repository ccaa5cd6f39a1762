/**
 * Registered application commands, global and per guild, as `PUT /applications/{app}/commands`
 * (and the guild route) leave them: a PUT replaces the whole list, a command keeps its id while
 * its name and type stay, and every write gets a new `version`. Bodies are checked against
 * Discord's rules for names, descriptions and options
 * (https://discord.com/developers/docs/interactions/application-commands), so a deploy that the
 * fake takes is one Discord would take.
 */
import { ApplicationCommandOptionType, ApplicationCommandType, ApplicationIntegrationType, type APIApplicationCommand, type APIApplicationCommandOption } from 'discord.js';
import { invalidFormBody, unknownCommand, type FieldProblem } from './errors.ts';
import { snowflake } from './snowflake.ts';
import { isObject, type Json } from './json.ts';
import { Problems } from './validate.ts';

/** One write of commands, in the order they came. */
export interface CommandRegistration {
  readonly at: number;
  readonly method: 'PUT' | 'POST' | 'PATCH' | 'DELETE';
  readonly applicationId: string;
  /** Null for the global list. */
  readonly guildId: string | null;
  /** The body as the bot sent it. */
  readonly body: unknown;
  /** The list in effect after the write. */
  readonly commands: readonly APIApplicationCommand[];
}

/** Chat-input names: lower case letters and digits of any script, `-`, `_`, `'`; 1 to 32. */
const CHAT_INPUT_NAME = /^[-_'\p{L}\p{N}\p{sc=Deva}\p{sc=Thai}]{1,32}$/u;
const MAX_COMMANDS: Readonly<Record<number, number>> = {
  [ApplicationCommandType.ChatInput]: 100,
  [ApplicationCommandType.User]: 15,
  [ApplicationCommandType.Message]: 15,
  [ApplicationCommandType.PrimaryEntryPoint]: 1,
};

export class CommandRegistry {
  readonly #lists = new Map<string | null, APIApplicationCommand[]>();
  readonly #registrations: CommandRegistration[] = [];

  constructor(private readonly applicationId: string) {}

  get registrations(): readonly CommandRegistration[] {
    return this.#registrations;
  }

  list(guildId: string | null): APIApplicationCommand[] {
    return structuredClone(this.#lists.get(guildId) ?? []);
  }

  get(guildId: string | null, id: string): APIApplicationCommand {
    const command = this.#lists.get(guildId)?.find((c) => c.id === id);
    if (command === undefined) throw unknownCommand();
    return structuredClone(command);
  }

  /** The command an interaction in `guildId` named `name` would run: the guild's, else the global one. */
  find(guildId: string | undefined, name: string): APIApplicationCommand | undefined {
    const chatInput = (c: APIApplicationCommand): boolean => c.name === name && c.type === ApplicationCommandType.ChatInput;
    return (guildId === undefined ? undefined : this.#lists.get(guildId)?.find(chatInput)) ?? this.#lists.get(null)?.find(chatInput);
  }

  /** PUT: the body is the whole new list. */
  overwrite(guildId: string | null, body: unknown): APIApplicationCommand[] {
    const p = new Problems();
    if (!p.array(body, [], { max: 200 })) throw invalidFormBody(p.list);
    const problems = body.flatMap((command, i) => checkCommand(command, [i]));
    problems.push(...duplicates(body as Json[]));
    for (const [type, max] of Object.entries(MAX_COMMANDS)) {
      const count = (body as Json[]).filter((c) => isObject(c) && (c.type ?? ApplicationCommandType.ChatInput) === Number(type)).length;
      if (count > max) problems.push({ path: [], code: 'APPLICATION_COMMANDS_TOO_MANY', message: `Maximum number of application commands of type ${type} reached (${max})` });
    }
    if (problems.length > 0) throw invalidFormBody(problems);
    const previous = this.#lists.get(guildId) ?? [];
    const next = (body as Json[]).map((c) => this.#complete(c, guildId, previous));
    this.#lists.set(guildId, next);
    this.#record('PUT', guildId, body);
    return structuredClone(next);
  }

  /** POST: creates one command, or replaces the one with its name and type. */
  upsert(guildId: string | null, body: unknown): { created: boolean; command: APIApplicationCommand } {
    const problems = checkCommand(body, []);
    if (problems.length > 0) throw invalidFormBody(problems);
    const command = body as Json;
    const list = this.#lists.get(guildId) ?? [];
    const type = (command.type ?? ApplicationCommandType.ChatInput) as number;
    const existing = list.findIndex((c) => c.name === command.name && c.type === type);
    const complete = this.#complete(command, guildId, list);
    const next = existing < 0 ? [...list, complete] : list.map((c, i) => (i === existing ? complete : c));
    this.#lists.set(guildId, next);
    this.#record('POST', guildId, body);
    return { created: existing < 0, command: structuredClone(complete) };
  }

  delete(guildId: string | null, id: string): void {
    const list = this.#lists.get(guildId) ?? [];
    if (!list.some((c) => c.id === id)) throw unknownCommand();
    this.#lists.set(guildId, list.filter((c) => c.id !== id));
    this.#record('DELETE', guildId, undefined);
  }

  #complete(command: Json, guildId: string | null, previous: readonly APIApplicationCommand[]): APIApplicationCommand {
    const type = (command.type ?? ApplicationCommandType.ChatInput) as ApplicationCommandType;
    const name = command.name as string;
    const id = previous.find((c) => c.name === name && c.type === type)?.id ?? snowflake();
    return {
      id,
      application_id: this.applicationId,
      ...(guildId === null ? {} : { guild_id: guildId }),
      type,
      name,
      name_localizations: (command.name_localizations ?? null) as APIApplicationCommand['name_localizations'],
      description: (command.description ?? '') as string,
      description_localizations: (command.description_localizations ?? null) as APIApplicationCommand['description_localizations'],
      ...(Array.isArray(command.options) && command.options.length > 0 ? { options: command.options as APIApplicationCommandOption[] } : {}),
      default_member_permissions: (command.default_member_permissions ?? null) as string | null,
      nsfw: command.nsfw === true,
      integration_types: (command.integration_types ?? [ApplicationIntegrationType.GuildInstall]) as ApplicationIntegrationType[],
      contexts: (command.contexts ?? null) as APIApplicationCommand['contexts'],
      version: snowflake(),
    };
  }

  #record(method: CommandRegistration['method'], guildId: string | null, body: unknown): void {
    this.#registrations.push({ at: Date.now(), method, applicationId: this.applicationId, guildId, body: structuredClone(body), commands: this.list(guildId) });
  }
}

function checkCommand(command: unknown, path: (string | number)[]): FieldProblem[] {
  const p = new Problems();
  if (!p.object(command, path)) return p.list;
  const type = command.type ?? ApplicationCommandType.ChatInput;
  if (!Object.keys(MAX_COMMANDS).map(Number).includes(type as number)) {
    p.add([...path, 'type'], 'BASE_TYPE_CHOICES', 'Value must be one of {1, 2, 3, 4}.');
    return p.list;
  }
  if (type === ApplicationCommandType.ChatInput) {
    checkName(p, command.name, [...path, 'name']);
    p.string(command.description, [...path, 'description'], { min: 1, max: 100, required: true });
    if (command.options !== undefined) checkOptions(p, command.options, [...path, 'options'], 0);
  } else {
    p.string(command.name, [...path, 'name'], { min: 1, max: 32, required: true });
    if (command.description !== undefined && command.description !== '') {
      p.add([...path, 'description'], 'APPLICATION_COMMAND_CONTEXT_MENU_DESCRIPTION_INVALID', 'Context menu commands cannot have description');
    }
  }
  const dmp = command.default_member_permissions;
  if (dmp !== undefined && dmp !== null && !(typeof dmp === 'string' && /^\d+$/.test(dmp))) {
    p.add([...path, 'default_member_permissions'], 'NUMBER_TYPE_COERCE', `Value "${String(dmp)}" is not snowflake.`);
  }
  return p.list;
}

function checkName(p: Problems, name: unknown, path: (string | number)[]): void {
  p.string(name, path, { min: 1, max: 32, required: true });
  if (typeof name === 'string' && (!CHAT_INPUT_NAME.test(name) || name !== name.toLowerCase())) {
    p.add(path, 'APPLICATION_COMMAND_INVALID_NAME', `Command name is invalid: ${JSON.stringify(name)}`);
  }
}

/** Options at depth 0 (the command), 1 (a subcommand group or subcommand) or 2 (a grouped subcommand). */
function checkOptions(p: Problems, options: unknown, path: (string | number)[], depth: number): void {
  if (!p.array(options, path, { max: 25 })) return;
  const T = ApplicationCommandOptionType;
  let seenOptional = false;
  const names = new Set<string>();
  const kinds = new Set<'sub' | 'value'>();
  options.forEach((option, i) => {
    const at = [...path, i];
    if (!p.object(option, at)) return;
    const type = option.type as number;
    if (!Number.isInteger(type) || type < T.Subcommand || type > T.Attachment) {
      p.add([...at, 'type'], 'BASE_TYPE_CHOICES', 'Value must be one of {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11}.');
      return;
    }
    checkName(p, option.name, [...at, 'name']);
    p.string(option.description, [...at, 'description'], { min: 1, max: 100, required: true });
    if (typeof option.name === 'string') {
      if (names.has(option.name)) p.add([...at, 'name'], 'APPLICATION_COMMAND_OPTION_NAME_ALREADY_EXISTS', 'Option names must be unique');
      names.add(option.name);
    }
    const isSub = type === T.Subcommand || type === T.SubcommandGroup;
    kinds.add(isSub ? 'sub' : 'value');
    if (isSub) {
      if (type === T.SubcommandGroup && depth > 0) p.add([...at, 'type'], 'APPLICATION_COMMAND_OPTION_TYPE_INVALID', 'Subcommand groups cannot be nested');
      if (type === T.Subcommand && depth > 1) p.add([...at, 'type'], 'APPLICATION_COMMAND_OPTION_TYPE_INVALID', 'Subcommands cannot be nested this deep');
      if (option.options !== undefined) checkOptions(p, option.options, [...at, 'options'], depth + 1);
      return;
    }
    if (option.required === true) {
      if (seenOptional) p.add([...at, 'required'], 'APPLICATION_COMMAND_OPTIONS_REQUIRED_INVALID_ORDER', 'Required options must be placed before non-required options');
    } else {
      seenOptional = true;
    }
    if (option.choices !== undefined) {
      if (![T.String, T.Integer, T.Number].includes(type)) p.add([...at, 'choices'], 'APPLICATION_COMMAND_OPTION_CHOICES_NOT_ALLOWED', 'Choices are only for string, integer and number options');
      else if (p.array(option.choices, [...at, 'choices'], { max: 25 }) && option.autocomplete === true) {
        p.add([...at, 'autocomplete'], 'APPLICATION_COMMAND_OPTION_AUTOCOMPLETE_CHOICES', 'Autocomplete cannot be set with choices');
      }
    }
  });
  if (kinds.size > 1) p.add(path, 'APPLICATION_COMMAND_OPTIONS_TYPE_INVALID', 'Subcommands and subcommand groups cannot be mixed with other options');
}

function duplicates(commands: readonly Json[]): FieldProblem[] {
  const seen = new Set<string>();
  const problems: FieldProblem[] = [];
  commands.forEach((c, i) => {
    if (!isObject(c) || typeof c.name !== 'string') return;
    const key = `${String(c.type ?? ApplicationCommandType.ChatInput)}:${c.name}`;
    if (seen.has(key)) problems.push({ path: [i, 'name'], code: 'APPLICATION_COMMANDS_DUPLICATE_NAME', message: `Application command names must be unique: ${c.name}` });
    seen.add(key);
  });
  return problems;
}
