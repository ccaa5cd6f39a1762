/**
 * The limits Discord puts on what a bot sends, checked as Discord checks them, so a bot that
 * works against the fake does not fail on the real thing: message content, embeds, components
 * (rows of at most five buttons, unique custom ids), files, autocomplete choices and modals.
 * Each check gives `FieldProblem`s with Discord's codes; the caller answers 400 / 50035
 * "Invalid Form Body" with them, as Discord does.
 *
 * Limits: https://discord.com/developers/docs/resources/message#create-message,
 * .../resources/message#embed-object-embed-limits, .../components/reference,
 * .../interactions/receiving-and-responding#interaction-response-object-autocomplete.
 * Components V2 (flag IS_COMPONENTS_V2) are checked only for being an array.
 */
import { invalidFormBody, tooLarge, type FieldProblem } from './errors.ts';
import { isObject, type Json } from './json.ts';

type Path = readonly (string | number)[];

export const MAX_CONTENT = 2000;
export const MAX_EMBEDS = 10;
export const MAX_EMBED_TOTAL = 6000;
export const MAX_ROWS = 5;
export const MAX_ROW_WIDTH = 5;
export const MAX_FILES = 10;
/** Bots' upload limit per file outside boosted servers (also sent as `attachment_size_limit`). */
export const MAX_FILE_BYTES = 10 * 1024 * 1024;
export const MAX_CHOICES = 25;
export const IS_COMPONENTS_V2 = 1 << 15;

const COMPONENT = { ActionRow: 1, Button: 2, StringSelect: 3, TextInput: 4, UserSelect: 5, RoleSelect: 6, MentionableSelect: 7, ChannelSelect: 8 } as const;
const SELECTS: readonly number[] = [COMPONENT.StringSelect, COMPONENT.UserSelect, COMPONENT.RoleSelect, COMPONENT.MentionableSelect, COMPONENT.ChannelSelect];
const BUTTON_STYLE = { Link: 5, Premium: 6 } as const;

/** Problems found so far in one body, with the checks that find them. */
export class Problems {
  readonly list: FieldProblem[] = [];

  add(path: Path, code: string, message: string): void {
    this.list.push({ path: [...path], code, message });
  }

  string(value: unknown, path: Path, { min = 0, max, required = false }: { min?: number; max: number; required?: boolean }): void {
    if (value === undefined || value === null) {
      if (required) this.add(path, 'BASE_TYPE_REQUIRED', 'This field is required');
      return;
    }
    if (typeof value !== 'string') return this.add(path, 'BASE_TYPE_STRING', 'Must be a valid string.');
    // Discord counts characters (code points), not UTF-16 units.
    const length = [...value].length;
    if (length > max) this.add(path, 'BASE_TYPE_MAX_LENGTH', `Must be ${max} or fewer in length.`);
    else if (length < min) this.add(path, 'BASE_TYPE_MIN_LENGTH', `Must be ${min} or more in length.`);
  }

  array(value: unknown, path: Path, { min = 0, max }: { min?: number; max: number }): value is unknown[] {
    if (!Array.isArray(value)) {
      this.add(path, 'BASE_TYPE_ARRAY', 'Must be an array.');
      return false;
    }
    if (value.length > max) this.add(path, 'BASE_TYPE_MAX_LENGTH', `Must be ${max} or fewer in length.`);
    else if (value.length < min) this.add(path, 'BASE_TYPE_MIN_LENGTH', `Must be ${min} or more in length.`);
    return true;
  }

  object(value: unknown, path: Path): value is Json {
    if (isObject(value)) return true;
    this.add(path, 'MODEL_TYPE_CONVERT', 'Only dictionaries may be used in a ModelType');
    return false;
  }
}

/** What a message body may hold, whether creating (reply, follow-up) or editing. */
export function checkMessage(body: Json, files: number, path: Path = []): FieldProblem[] {
  const p = new Problems();
  p.string(body.content, [...path, 'content'], { max: MAX_CONTENT });
  if (body.embeds !== undefined && body.embeds !== null) checkEmbeds(p, body.embeds, [...path, 'embeds']);
  if (body.components !== undefined && body.components !== null) {
    const flags = typeof body.flags === 'number' ? body.flags : 0;
    if ((flags & IS_COMPONENTS_V2) !== 0) p.array(body.components, [...path, 'components'], { max: 40 });
    else checkComponents(p, body.components, [...path, 'components']);
  }
  if (body.attachments !== undefined && body.attachments !== null && p.array(body.attachments, [...path, 'attachments'], { max: MAX_FILES })) {
    body.attachments.forEach((a, i) => {
      if (p.object(a, [...path, 'attachments', i]) && a.id === undefined) {
        p.add([...path, 'attachments', i, 'id'], 'BASE_TYPE_REQUIRED', 'This field is required');
      }
    });
  }
  if (files > MAX_FILES) p.add([...path, 'files'], 'BASE_TYPE_MAX_LENGTH', `Must be ${MAX_FILES} or fewer in length.`);
  return p.list;
}

/**
 * A message body that passed `checkMessage`, with every upload within the size limit; anything
 * else is thrown as Discord's answer (400 / 50035, or 413 / 40005).
 */
export function checkedMessageBody(body: unknown, files: readonly { readonly bytes: Buffer }[], path: Path = []): Json {
  if (!isObject(body)) throw invalidFormBody([{ path: [...path], code: 'MODEL_TYPE_CONVERT', message: 'Only dictionaries may be used in a ModelType' }]);
  const problems = checkMessage(body, files.length, path);
  if (problems.length > 0) throw invalidFormBody(problems);
  if (files.some((f) => f.bytes.length > MAX_FILE_BYTES)) throw tooLarge();
  return body;
}

/** A new message must show something: content, an embed, a component, a file, a sticker or a poll. */
export function isEmptyMessage(body: Json, files: number): boolean {
  const nonEmpty = (v: unknown): boolean => (typeof v === 'string' ? v.length > 0 : Array.isArray(v) ? v.length > 0 : v !== undefined && v !== null);
  return !nonEmpty(body.content) && !nonEmpty(body.embeds) && !nonEmpty(body.components) && files === 0 && !nonEmpty(body.attachments) && !nonEmpty(body.sticker_ids) && !nonEmpty(body.poll);
}

function checkEmbeds(p: Problems, embeds: unknown, path: Path): void {
  if (!p.array(embeds, path, { max: MAX_EMBEDS })) return;
  let total = 0;
  const text = (v: unknown): number => (typeof v === 'string' ? [...v].length : 0);
  embeds.forEach((embed, i) => {
    const at = [...path, i];
    if (!p.object(embed, at)) return;
    p.string(embed.title, [...at, 'title'], { max: 256 });
    p.string(embed.description, [...at, 'description'], { max: 4096 });
    total += text(embed.title) + text(embed.description);
    if (isObject(embed.footer)) {
      p.string(embed.footer.text, [...at, 'footer', 'text'], { max: 2048, required: true });
      total += text(embed.footer.text);
    }
    if (isObject(embed.author)) {
      p.string(embed.author.name, [...at, 'author', 'name'], { max: 256, required: true });
      total += text(embed.author.name);
    }
    if (embed.fields !== undefined && p.array(embed.fields, [...at, 'fields'], { max: 25 })) {
      embed.fields.forEach((field, j) => {
        if (!p.object(field, [...at, 'fields', j])) return;
        p.string(field.name, [...at, 'fields', j, 'name'], { min: 1, max: 256, required: true });
        p.string(field.value, [...at, 'fields', j, 'value'], { min: 1, max: 1024, required: true });
        total += text(field.name) + text(field.value);
      });
    }
  });
  if (total > MAX_EMBED_TOTAL) p.add(path, 'BASE_TYPE_MAX_LENGTH', `Embed size exceeds maximum size of ${MAX_EMBED_TOTAL}`);
}

function checkComponents(p: Problems, rows: unknown, path: Path): void {
  if (!p.array(rows, path, { max: MAX_ROWS })) return;
  const customIds = new Set<string>();
  rows.forEach((row, i) => {
    const at = [...path, i];
    if (!p.object(row, at)) return;
    if (row.type !== COMPONENT.ActionRow) return p.add([...at, 'type'], 'UNION_TYPE_CHOICES', 'Value of field "type" must be one of (1,).');
    const components = row.components;
    if (!p.array(components, [...at, 'components'], { min: 1, max: MAX_ROW_WIDTH })) return;
    components.forEach((component, j) => {
      const c = [...at, 'components', j];
      if (!p.object(component, c)) return;
      const customId = component.custom_id;
      if (typeof customId === 'string') {
        if (customIds.has(customId)) p.add([...c, 'custom_id'], 'COMPONENT_CUSTOM_ID_DUPLICATED', 'Component custom id cannot be duplicated');
        customIds.add(customId);
      }
      if (component.type === COMPONENT.Button) {
        const style = component.style;
        if (typeof style !== 'number' || style < 1 || style > 6) return p.add([...c, 'style'], 'BASE_TYPE_CHOICES', 'Value must be one of {1, 2, 3, 4, 5, 6}.');
        p.string(component.label, [...c, 'label'], { max: 80 });
        if (style === BUTTON_STYLE.Link) {
          p.string(component.url, [...c, 'url'], { max: 512, required: true });
          if (customId !== undefined) p.add([...c, 'custom_id'], 'BUTTON_COMPONENT_CUSTOM_ID_NOT_ALLOWED', 'A link button cannot have a custom id');
        } else if (style !== BUTTON_STYLE.Premium) {
          p.string(customId, [...c, 'custom_id'], { min: 1, max: 100, required: true });
        }
        if (component.label === undefined && component.emoji === undefined && style !== BUTTON_STYLE.Premium) {
          p.add([...c, 'label'], 'BUTTON_COMPONENT_LABEL_OR_EMOJI_REQUIRED', 'A button must have a label or an emoji');
        }
      } else if (SELECTS.includes(component.type as number)) {
        if (components.length > 1) p.add(c, 'COMPONENT_LAYOUT_WIDTH_EXCEEDED', 'The specified component exceeds the maximum width');
        p.string(customId, [...c, 'custom_id'], { min: 1, max: 100, required: true });
        p.string(component.placeholder, [...c, 'placeholder'], { max: 150 });
        if (component.type === COMPONENT.StringSelect) p.array(component.options, [...c, 'options'], { min: 1, max: 25 });
      } else {
        p.add([...c, 'type'], 'UNION_TYPE_CHOICES', 'Value of field "type" must be one of (2, 3, 5, 6, 7, 8).');
      }
    });
  });
}

/** The data of an autocomplete result (callback type 8). */
export function checkChoices(data: unknown, path: Path = ['data']): FieldProblem[] {
  const p = new Problems();
  if (!p.object(data, path)) return p.list;
  if (!p.array(data.choices, [...path, 'choices'], { max: MAX_CHOICES })) return p.list;
  data.choices.forEach((choice, i) => {
    const at = [...path, 'choices', i];
    if (!p.object(choice, at)) return;
    p.string(choice.name, [...at, 'name'], { min: 1, max: 100, required: true });
    if (typeof choice.value === 'string') p.string(choice.value, [...at, 'value'], { max: 100 });
    else if (typeof choice.value !== 'number') p.add([...at, 'value'], 'BASE_TYPE_REQUIRED', 'This field is required');
  });
  return p.list;
}

/** The data of a modal (callback type 9): a custom id, a title and one to five rows. */
export function checkModal(data: unknown, path: Path = ['data']): FieldProblem[] {
  const p = new Problems();
  if (!p.object(data, path)) return p.list;
  p.string(data.custom_id, [...path, 'custom_id'], { min: 1, max: 100, required: true });
  p.string(data.title, [...path, 'title'], { min: 1, max: 45, required: true });
  p.array(data.components, [...path, 'components'], { min: 1, max: 5 });
  return p.list;
}

