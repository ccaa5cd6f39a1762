/**
 * The operator's HTTP listener, when `METRICS_PORT` is set: `GET /healthz` and `GET /metrics`.
 * Node's own http server: two read-only routes need no framework.
 *
 * - `/healthz`: 200 when the gateway connection is up and storage answers a ping, else 503;
 *   the body says which, in a line of JSON: `{"status":"ok","gateway":"connected",
 *   "storage":"reachable"}`, or e.g. `{"status":"unavailable","gateway":"connected",
 *   "storage":"unreachable: the redis store is not connected"}`. During the stop it is 503
 *   `stopping`, so a load balancer or supervisor stops counting on this process at once.
 * - `/metrics`: metrics.ts's registry in the Prometheus text format.
 *
 * Decisions:
 * - Bound to 127.0.0.1 unless `METRICS_HOST` says otherwise: metrics name the bot's commands
 *   and load, which is nobody's business outside the host (a scraper on another machine is
 *   configured deliberately). `METRICS_PORT=0` picks a free port; the log line says which.
 * - The storage ping has its own limit (`HEALTH_PING_MS`), shorter than a supervisor's probe
 *   timeout: a probe that times out says less than a 503 with a reason.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { errorText, type BotLog } from '../bot/log.ts';
import type { BotMetrics } from './metrics.ts';

export const DEFAULT_METRICS_HOST = '127.0.0.1';
export const HEALTH_PING_MS = 1500;

export interface HealthEnv {
  readonly METRICS_PORT?: string;
  readonly METRICS_HOST?: string;
}

/** The listener's address from the environment, or undefined when `METRICS_PORT` is unset. */
export function metricsAddress(env: HealthEnv): { port: number; host: string } | undefined {
  const port = env.METRICS_PORT?.trim();
  if (port === undefined || port === '') return undefined;
  if (!/^\d{1,5}$/.test(port) || Number(port) > 65535) throw new TypeError(`METRICS_PORT must be a port number (0 to 65535), not "${port}"`);
  const host = env.METRICS_HOST?.trim();
  return { port: Number(port), host: host === undefined || host === '' ? DEFAULT_METRICS_HOST : host };
}

export interface HealthSources {
  gatewayConnected(): boolean;
  /** Resolves when storage answers; rejects with why not. */
  pingStorage(): Promise<void>;
  /** True once the stop has begun. */
  stopping(): boolean;
}

export interface Health {
  readonly server: Server;
  /** `http://host:port`, with the port actually bound. */
  readonly url: string;
  close(): Promise<void>;
}

export async function serveHealth(address: { port: number; host: string }, sources: HealthSources, metrics: BotMetrics, log: BotLog): Promise<Health> {
  const server = createServer((request, response) => {
    void route(request, response, sources, metrics).catch((e: unknown) => {
      log.error('the health listener failed to answer', { path: request.url, error: errorText(e) });
      if (!response.headersSent) response.writeHead(500, { 'content-type': 'text/plain; charset=utf-8' });
      response.end('internal error\n');
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(address.port, address.host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  server.on('error', (e) => log.error('the health listener failed', { error: errorText(e) }));
  const bound = server.address() as AddressInfo;
  const host = bound.family === 'IPv6' ? `[${bound.address}]` : bound.address;
  const url = `http://${host}:${bound.port}`;
  log.info('health and metrics listening', { url, health: `${url}/healthz`, metrics: `${url}/metrics` });
  return {
    server,
    url,
    close: () =>
      new Promise<void>((resolve) => {
        // Scrapers keep connections alive; those must not hold the stop.
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

async function route(request: IncomingMessage, response: ServerResponse, sources: HealthSources, metrics: BotMetrics): Promise<void> {
  const path = (request.url ?? '/').split('?')[0];
  if (request.method !== 'GET' && request.method !== 'HEAD') {
    response.writeHead(405, { allow: 'GET, HEAD', 'content-type': 'text/plain; charset=utf-8' }).end('method not allowed\n');
    return;
  }
  if (path === '/healthz') {
    const body = await health(sources);
    response.writeHead(body.status === 'ok' ? 200 : 503, { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store' });
    response.end(`${JSON.stringify(body)}\n`);
    return;
  }
  if (path === '/metrics') {
    const { text, contentType } = await metrics.scrape();
    response.writeHead(200, { 'content-type': contentType, 'cache-control': 'no-store' }).end(text);
    return;
  }
  response.writeHead(404, { 'content-type': 'text/plain; charset=utf-8' }).end('not found: try /healthz or /metrics\n');
}

export interface HealthBody {
  readonly status: 'ok' | 'unavailable' | 'stopping';
  readonly gateway: string;
  readonly storage: string;
}

export async function health(sources: HealthSources): Promise<HealthBody> {
  const gateway = sources.gatewayConnected() ? 'connected' : 'not connected';
  const storage = await withinMs(sources.pingStorage(), HEALTH_PING_MS).then(
    () => 'reachable',
    (e: unknown) => `unreachable: ${String((e as { reason?: unknown }).reason ?? (e instanceof Error ? e.message : e))}`,
  );
  const status = sources.stopping() ? 'stopping' : gateway === 'connected' && storage === 'reachable' ? 'ok' : 'unavailable';
  return { status, gateway, storage };
}

function withinMs(work: Promise<void>, ms: number): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within ${ms} ms`)), ms);
  });
  return Promise.race([work, late]).finally(() => clearTimeout(timer));
}
