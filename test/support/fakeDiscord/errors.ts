/**
 * Errors the fake answers with, in Discord's JSON shape: `{ "message", "code", "errors"? }`.
 * The codes are Discord's own (https://discord.com/developers/docs/topics/opcodes-and-status-codes),
 * so discord.js turns them into the same `DiscordAPIError` a bot meets in production.
 */

/** One problem in a request body, at a path of keys and indexes (`data.components.0.components`). */
export interface FieldProblem {
  readonly path: readonly (string | number)[];
  /** Discord's code for the problem, e.g. `BASE_TYPE_MAX_LENGTH`. */
  readonly code: string;
  readonly message: string;
}

export interface ErrorEntry {
  readonly code: string;
  readonly message: string;
}

/** Discord's nested error tree: `{ "data": { "content": { "_errors": [{ code, message }] } } }`. */
export interface ErrorTree {
  _errors?: ErrorEntry[];
  [key: string]: ErrorTree | ErrorEntry[] | undefined;
}

export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: number,
    message: string,
    readonly problems: readonly FieldProblem[] = [],
  ) {
    super(message);
    this.name = 'ApiError';
  }

  toJSON(): { message: string; code: number; errors?: ErrorTree } {
    return this.problems.length === 0
      ? { message: this.message, code: this.code }
      : { message: this.message, code: this.code, errors: errorTree(this.problems) };
  }
}

export function errorTree(problems: readonly FieldProblem[]): ErrorTree {
  const root: ErrorTree = {};
  for (const problem of problems) {
    let node = root;
    for (const key of problem.path) {
      const k = String(key);
      node[k] ??= {};
      node = node[k] as ErrorTree;
    }
    (node._errors ??= []).push({ code: problem.code, message: problem.message });
  }
  return root;
}

export const notFound = (): ApiError => new ApiError(404, 0, '404: Not Found');
export const methodNotAllowed = (): ApiError => new ApiError(405, 0, '405: Method Not Allowed');
export const unauthorized = (): ApiError => new ApiError(401, 0, '401: Unauthorized');
export const unknownApplication = (): ApiError => new ApiError(404, 10002, 'Unknown Application');
export const unknownChannel = (): ApiError => new ApiError(404, 10003, 'Unknown Channel');
export const unknownGuild = (): ApiError => new ApiError(404, 10004, 'Unknown Guild');
export const unknownMessage = (): ApiError => new ApiError(404, 10008, 'Unknown Message');
export const unknownWebhook = (): ApiError => new ApiError(404, 10015, 'Unknown Webhook');
export const unknownCommand = (): ApiError => new ApiError(404, 10063, 'Unknown application command');
export const unknownInteraction = (): ApiError => new ApiError(404, 10062, 'Unknown interaction');
export const alreadyAcknowledged = (): ApiError =>
  new ApiError(400, 40060, 'Interaction has already been acknowledged.');
export const tooLarge = (): ApiError => new ApiError(413, 40005, 'Request entity too large');
export const missingAccess = (): ApiError => new ApiError(403, 50001, 'Missing Access');
export const emptyMessage = (): ApiError => new ApiError(400, 50006, 'Cannot send an empty message');
export const invalidJson = (): ApiError => new ApiError(400, 50109, 'The request body contains invalid JSON.');
export const badRequest = (why: string): ApiError => new ApiError(400, 0, `400: Bad Request (${why})`);
export const invalidFormBody = (problems: readonly FieldProblem[]): ApiError =>
  new ApiError(400, 50035, 'Invalid Form Body', problems);
