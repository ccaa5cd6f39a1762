/**
 * The fake's HTTP side: one Node server on 127.0.0.1 that answers REST under `/api/v10`, serves
 * attachment bytes under `/attachments`, and hands WebSocket upgrades to the gateway. Every
 * request is logged with its decoded body; every answer is Discord-shaped JSON (errors as
 * `{ message, code, errors? }`), and a bug in the fake itself is a 500 saying so.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Duplex } from 'node:stream';
import { ApiError, badRequest, invalidJson, methodNotAllowed, notFound, tooLarge, unauthorized } from './errors.ts';
import type { FakeFile } from './messages.ts';
import { boundaryOf, MultipartError, parseMultipart } from './multipart.ts';

export const API_PREFIX = '/api/v10';
/** Bigger than any upload Discord allows (10 files of 10 MiB), so the fake can answer 413 itself. */
const MAX_BODY = 110 * 1024 * 1024;

export interface ParsedRequest {
  readonly method: string;
  /** The path after `/api/v10`, without the query. */
  readonly path: string;
  readonly params: Readonly<Record<string, string>>;
  readonly query: URLSearchParams;
  /** The JSON body (a multipart body's `payload_json`), or undefined when there is none. */
  readonly body: unknown;
  readonly files: readonly FakeFile[];
}

export type RouteResult = { readonly status: 204 } | { readonly status: number; readonly json: unknown };

export interface Route {
  readonly method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  /** A path after `/api/v10` with `:name` segments, e.g. `/interactions/:id/:token/callback`. */
  readonly pattern: string;
  /** Whether the route needs `Authorization: Bot <token>` (interaction and webhook routes do not). */
  readonly auth: boolean;
  readonly handle: (request: ParsedRequest) => RouteResult;
}

/** One request as the fake saw and answered it. */
export interface LoggedRequest {
  readonly at: number;
  readonly method: string;
  /** The path as requested, with `/api/v10` and the query. */
  readonly url: string;
  /** The route pattern that matched, if one did. */
  readonly route: string | undefined;
  readonly status: number;
  readonly body: unknown;
  readonly files: readonly { readonly field: string; readonly name: string; readonly contentType: string | undefined; readonly size: number }[];
  /** The error answered, for a status of 400 and up. */
  readonly error?: unknown;
}

export interface HttpOptions {
  readonly routes: readonly Route[];
  readonly token: string;
  /** Bytes for `GET /attachments/{channel}/{id}/{name}`. */
  readonly attachment: (channelId: string, attachmentId: string) => FakeFile | undefined;
  readonly upgrade: (request: IncomingMessage, socket: Duplex, head: Buffer) => boolean;
  readonly log: (entry: LoggedRequest) => void;
}

interface CompiledRoute extends Route {
  readonly regex: RegExp;
  readonly names: readonly string[];
}

export class HttpServer {
  readonly #server: Server;
  readonly #routes: readonly CompiledRoute[];
  #port = 0;

  constructor(private readonly options: HttpOptions) {
    this.#routes = options.routes.map(compile);
    this.#server = createServer((req, res) => void this.#handle(req, res));
    this.#server.on('upgrade', (req: IncomingMessage, socket: Duplex, head: Buffer) => {
      if (!options.upgrade(req, socket, head)) {
        socket.end('HTTP/1.1 404 Not Found\r\nContent-Length: 0\r\nConnection: close\r\n\r\n');
      }
    });
  }

  get port(): number {
    return this.#port;
  }

  async listen(host: string): Promise<void> {
    await new Promise<void>((resolve, reject) => {
      this.#server.once('error', reject);
      this.#server.listen(0, host, () => {
        this.#server.off('error', reject);
        resolve();
      });
    });
    this.#port = (this.#server.address() as AddressInfo).port;
  }

  /** Stops listening and cuts every connection, kept-alive ones included. */
  async close(): Promise<void> {
    const closed = new Promise<void>((resolve) => this.#server.close(() => resolve()));
    this.#server.closeAllConnections();
    await closed;
  }

  async #handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const method = req.method ?? 'GET';
    const url = new URL(req.url ?? '/', 'http://fake');
    const entry: { route?: string; body?: unknown; files?: readonly FakeFile[] } = {};
    let result: RouteResult | { status: 200; raw: FakeFile };
    try {
      const raw = await readBody(req);
      if (url.pathname.startsWith('/attachments/') && method === 'GET') {
        result = this.#attachment(url.pathname);
      } else if (url.pathname.startsWith(`${API_PREFIX}/`)) {
        const path = url.pathname.slice(API_PREFIX.length);
        const matches = this.#routes.map((r) => ({ route: r, m: r.regex.exec(path) })).filter((x) => x.m !== null);
        const hit = matches.find((x) => x.route.method === method);
        if (hit === undefined) throw matches.length > 0 ? methodNotAllowed() : notFound();
        entry.route = hit.route.pattern;
        if (hit.route.auth && req.headers.authorization !== `Bot ${this.options.token}`) throw unauthorized();
        const { body, files } = decodeBody(req.headers['content-type'], raw);
        entry.body = body;
        entry.files = files;
        const params = Object.fromEntries(hit.route.names.map((name, i) => [name, decodeURIComponent((hit.m as RegExpExecArray)[i + 1])]));
        result = hit.route.handle({ method, path, params, query: url.searchParams, body, files });
      } else {
        throw notFound();
      }
    } catch (e) {
      const error = e instanceof ApiError ? e : new ApiError(500, 0, `500: Internal Server Error (a bug in the fake: ${e instanceof Error ? (e.stack ?? e.message) : String(e)})`);
      result = { status: error.status, json: error.toJSON() };
    }
    this.options.log({
      at: Date.now(),
      method,
      url: `${url.pathname}${url.search}`,
      route: entry.route,
      status: result.status,
      body: entry.body,
      files: (entry.files ?? []).map((f) => ({ field: f.field, name: f.name, contentType: f.contentType, size: f.bytes.length })),
      ...(result.status >= 400 && 'json' in result ? { error: result.json } : {}),
    });
    send(res, result);
  }

  #attachment(pathname: string): { status: 200; raw: FakeFile } {
    const m = /^\/attachments\/([^/]+)\/([^/]+)\/[^/]+$/.exec(pathname);
    const file = m === null ? undefined : this.options.attachment(m[1], m[2]);
    if (file === undefined) throw notFound();
    return { status: 200, raw: file };
  }
}

function compile(route: Route): CompiledRoute {
  const names: string[] = [];
  const source = route.pattern
    .split('/')
    .map((segment) => {
      if (!segment.startsWith(':')) return segment.replace(/[.*+?^${}()|[\]\\@]/g, '\\$&');
      names.push(segment.slice(1));
      return '([^/]+)';
    })
    .join('/');
  return { ...route, regex: new RegExp(`^${source}$`), names };
}

function send(res: ServerResponse, result: RouteResult | { status: 200; raw: FakeFile }): void {
  if ('raw' in result) {
    res.writeHead(200, { 'Content-Type': result.raw.contentType ?? 'application/octet-stream', 'Content-Length': result.raw.bytes.length });
    res.end(result.raw.bytes);
  } else if ('json' in result) {
    const text = JSON.stringify(result.json);
    res.writeHead(result.status, { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(text) });
    res.end(text);
  } else {
    res.writeHead(204);
    res.end();
  }
}

async function readBody(req: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > MAX_BODY) throw tooLarge();
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks);
}

/**
 * A JSON body, or a multipart one: `payload_json` is the JSON body and `files[n]` parts are
 * files. No body is `undefined`.
 */
function decodeBody(contentType: string | undefined, raw: Buffer): { body: unknown; files: FakeFile[] } {
  if (raw.length === 0) return { body: undefined, files: [] };
  const type = contentType?.split(';')[0].trim().toLowerCase();
  if (type === 'application/json') return { body: parseJson(raw.toString('utf8')), files: [] };
  if (type === 'multipart/form-data') {
    const boundary = boundaryOf(contentType);
    if (boundary === undefined) throw badRequest('multipart/form-data without a boundary');
    let parts;
    try {
      parts = parseMultipart(raw, boundary);
    } catch (e) {
      if (e instanceof MultipartError) throw badRequest(`malformed multipart body: ${e.message}`);
      throw e;
    }
    const payload = parts.find((p) => p.name === 'payload_json');
    const files = parts
      .filter((p) => p.filename !== undefined)
      .map((p) => ({ field: p.name, name: p.filename as string, contentType: p.contentType, bytes: p.data }));
    return { body: payload === undefined ? {} : parseJson(payload.data.toString('utf8')), files };
  }
  throw badRequest(`unsupported Content-Type ${contentType ?? '(none)'}`);
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    throw invalidJson();
  }
}
