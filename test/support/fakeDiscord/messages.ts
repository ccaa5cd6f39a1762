/**
 * The messages the bot made (interaction replies, follow-ups, channel messages) as Discord holds
 * them, built from the bodies the bot sent and the files it uploaded. discord.js builds a
 * `Message` from what an edit or follow-up returns, so these are full message objects.
 *
 * Attachments follow Discord's rules: in a body's `attachments` array an entry whose id is a
 * number `n` is the upload `files[n]`, any other id keeps an attachment the message already has;
 * without the array, a new message gets every upload and an edit keeps its attachments and adds
 * the uploads. Attachment bytes are served back at each attachment's `url`.
 */
import { MessageFlags, MessageType, type APIAttachment, type APIEmbed, type APIMessage, type APIMessageInteractionMetadata, type APIMessageTopLevelComponent, type APIUser } from 'discord.js';
import { invalidFormBody, unknownMessage } from './errors.ts';
import { snowflake } from './snowflake.ts';
import { isObject, type Json } from './json.ts';

/** A file the bot uploaded, decoded from the multipart body. */
export interface FakeFile {
  /** The form field it came in, e.g. `files[0]`. */
  readonly field: string;
  readonly name: string;
  readonly contentType: string | undefined;
  readonly bytes: Buffer;
}

/** Where a new message goes and who it is from. */
export interface MessageOrigin {
  readonly channelId: string;
  readonly guildId: string | undefined;
  readonly author: APIUser;
  readonly type: MessageType;
  /** Set for messages made through an interaction's webhook. */
  readonly applicationId?: string;
  readonly interactionMetadata?: APIMessageInteractionMetadata;
}

/** Flags a bot may set when creating a message. */
const CREATE_FLAGS = MessageFlags.SuppressEmbeds | MessageFlags.Ephemeral | MessageFlags.SuppressNotifications | MessageFlags.IsComponentsV2;
/** Flags a bot may change when editing one. */
const EDIT_FLAGS = MessageFlags.SuppressEmbeds | MessageFlags.IsComponentsV2;

export class MessageStore {
  readonly #messages = new Map<string, APIMessage>();
  /** Uploaded bytes by attachment id. */
  readonly #files = new Map<string, FakeFile>();

  constructor(
    /** Base of attachment URLs: the fake's own HTTP address, known once it listens. */
    private readonly cdnBase: () => string,
  ) {}

  /** A copy of a message as it is now. */
  get(id: string): APIMessage | undefined {
    const message = this.#messages.get(id);
    return message === undefined ? undefined : structuredClone(message);
  }

  /** Like `get`, but a missing message is Discord's 404 Unknown Message. */
  require(id: string): APIMessage {
    const message = this.get(id);
    if (message === undefined) throw unknownMessage();
    return message;
  }

  /** Every message in a channel, oldest first. */
  inChannel(channelId: string): APIMessage[] {
    return [...this.#messages.values()].filter((m) => m.channel_id === channelId).map((m) => structuredClone(m));
  }

  /** A message with no content yet, shown as "thinking…" (a deferred reply). */
  createLoading(origin: MessageOrigin, ephemeral: boolean): APIMessage {
    const flags = MessageFlags.Loading | (ephemeral ? MessageFlags.Ephemeral : 0);
    return this.#store(this.#base(origin, flags));
  }

  create(origin: MessageOrigin, body: Json, files: readonly FakeFile[], extraFlags = 0): APIMessage {
    const flags = (numberOr(body.flags, 0) & CREATE_FLAGS) | extraFlags;
    const message = this.#base(origin, flags);
    return this.#store(this.#apply(message, body, files, true));
  }

  /** Applies an edit body; a loading message stops loading. */
  edit(id: string, body: Json, files: readonly FakeFile[]): APIMessage {
    const current = this.#messages.get(id);
    if (current === undefined) throw unknownMessage();
    const wasLoading = ((current.flags ?? 0) & MessageFlags.Loading) !== 0;
    const keptFlags = (current.flags ?? 0) & ~MessageFlags.Loading & ~EDIT_FLAGS;
    const flags = typeof body.flags === 'number' ? keptFlags | (body.flags & EDIT_FLAGS) : keptFlags | ((current.flags ?? 0) & EDIT_FLAGS);
    const edited = this.#apply({ ...current, flags: flags as MessageFlags }, body, files, false);
    // Filling in a deferred reply is not an edit in Discord's eyes.
    if (!wasLoading) edited.edited_timestamp = new Date().toISOString();
    return this.#store(edited);
  }

  delete(id: string): void {
    const message = this.#messages.get(id);
    if (message === undefined) throw unknownMessage();
    for (const a of message.attachments) this.#files.delete(a.id);
    this.#messages.delete(id);
  }

  /** The bytes behind an attachment URL path `/attachments/{channel}/{id}/{name}`. */
  file(channelId: string, attachmentId: string): FakeFile | undefined {
    const file = this.#files.get(attachmentId);
    if (file === undefined) return undefined;
    const owner = [...this.#messages.values()].find((m) => m.attachments.some((a) => a.id === attachmentId));
    return owner?.channel_id === channelId ? file : undefined;
  }

  #store(message: APIMessage): APIMessage {
    this.#messages.set(message.id, message);
    return structuredClone(message);
  }

  #base(origin: MessageOrigin, flags: number): APIMessage {
    return {
      id: snowflake(),
      type: origin.type,
      channel_id: origin.channelId,
      author: origin.author,
      content: '',
      timestamp: new Date().toISOString(),
      edited_timestamp: null,
      tts: false,
      mention_everyone: false,
      mentions: [],
      mention_roles: [],
      attachments: [],
      embeds: [],
      components: [],
      pinned: false,
      flags: flags as MessageFlags,
      ...(origin.applicationId === undefined ? {} : { application_id: origin.applicationId, webhook_id: origin.applicationId }),
      ...(origin.interactionMetadata === undefined ? {} : { interaction_metadata: origin.interactionMetadata }),
      ...(origin.guildId === undefined ? {} : { guild_id: origin.guildId }),
    } as APIMessage;
  }

  #apply(message: APIMessage, body: Json, files: readonly FakeFile[], creating: boolean): APIMessage {
    const next: APIMessage = { ...message };
    if ('content' in body) next.content = typeof body.content === 'string' ? body.content : '';
    if ('embeds' in body) next.embeds = Array.isArray(body.embeds) ? (body.embeds as APIEmbed[]).map((e) => ({ type: 'rich', ...e }) as APIEmbed) : [];
    if ('components' in body) next.components = Array.isArray(body.components) ? (body.components as APIMessageTopLevelComponent[]) : [];
    if (typeof body.tts === 'boolean' && creating) next.tts = body.tts;
    next.attachments = this.#attachments(message, body, files, creating);
    return next;
  }

  #attachments(message: APIMessage, body: Json, files: readonly FakeFile[], creating: boolean): APIAttachment[] {
    const byIndex = new Map(files.map((f) => [/^files\[(\d+)\]$/.exec(f.field)?.[1] ?? f.field, f]));
    const used = new Set<FakeFile>();
    const kept: APIAttachment[] = [];
    if (Array.isArray(body.attachments)) {
      body.attachments.forEach((entry, i) => {
        if (!isObject(entry)) return;
        const id = String(entry.id);
        const existing = message.attachments.find((a) => a.id === id);
        const upload = byIndex.get(id);
        if (existing !== undefined) {
          kept.push(existing);
        } else if (upload !== undefined) {
          used.add(upload);
          kept.push(this.#upload(message.channel_id, upload, entry));
        } else {
          throw invalidFormBody([{ path: ['attachments', i, 'id'], code: 'ATTACHMENT_NOT_FOUND', message: `Unknown attachment or upload: ${id}` }]);
        }
      });
    } else if (!creating) {
      kept.push(...message.attachments);
    }
    // Uploads no entry names are attached too, as Discord does.
    for (const file of files) if (!used.has(file)) kept.push(this.#upload(message.channel_id, file, {}));
    for (const old of message.attachments) if (!kept.includes(old)) this.#files.delete(old.id);
    return kept;
  }

  #upload(channelId: string, file: FakeFile, entry: Json): APIAttachment {
    const id = snowflake();
    this.#files.set(id, file);
    const url = `${this.cdnBase()}/attachments/${channelId}/${id}/${encodeURIComponent(file.name)}`;
    const size = pngSize(file.bytes);
    return {
      id,
      filename: file.name,
      size: file.bytes.length,
      url,
      proxy_url: url,
      ...(file.contentType === undefined ? {} : { content_type: file.contentType }),
      ...(size === undefined ? {} : { width: size.width, height: size.height }),
      ...(typeof entry.description === 'string' ? { description: entry.description } : {}),
    };
  }
}

/** Width and height from a PNG's IHDR chunk, which always comes first; undefined for other data. */
export function pngSize(bytes: Buffer): { width: number; height: number } | undefined {
  const signature = '89504e470d0a1a0a';
  if (bytes.length < 24 || bytes.subarray(0, 8).toString('hex') !== signature) return undefined;
  if (bytes.subarray(12, 16).toString('latin1') !== 'IHDR') return undefined;
  return { width: bytes.readUInt32BE(16), height: bytes.readUInt32BE(20) };
}

function numberOr(value: unknown, fallback: number): number {
  return typeof value === 'number' && Number.isInteger(value) ? value : fallback;
}

