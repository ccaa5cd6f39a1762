// A TCP proxy in front of the test Redis that the test controls: while `setDelayMs` is above
// zero, each chunk the client sends holding a SET command is held back that long before it
// goes on (and everything the client sends after it waits behind it, so Redis still sees the
// connection's commands in order). Reads pass at once. It makes a write slower than the
// storage's limit that then lands — a real slow store, not a stand-in.
import { createServer, Socket, type AddressInfo, type Server } from 'node:net';

export interface RedisProxy {
  readonly url: string;
  setDelayMs(ms: number): void;
  close(): Promise<void>;
}

export async function startRedisProxy(target: { host: string; port: number }): Promise<RedisProxy> {
  let delayMs = 0;
  const sockets = new Set<Socket>();
  const server: Server = createServer((client) => {
    const upstream = new Socket();
    sockets.add(client);
    sockets.add(upstream);
    upstream.connect(target.port, target.host);
    // Chunks go upstream one after another; a held one holds those after it.
    let chain = Promise.resolve();
    client.on('data', (chunk: Buffer) => {
      const hold = delayMs > 0 && /\r\nSET\r\n/i.test(chunk.toString('latin1')) ? delayMs : 0;
      chain = chain.then(async () => {
        if (hold > 0) await new Promise((resolve) => setTimeout(resolve, hold));
        if (!upstream.destroyed) upstream.write(chunk);
      });
    });
    upstream.on('data', (chunk: Buffer) => {
      if (!client.destroyed) client.write(chunk);
    });
    const end = () => {
      client.destroy();
      upstream.destroy();
      sockets.delete(client);
      sockets.delete(upstream);
    };
    client.on('close', end);
    upstream.on('close', end);
    client.on('error', end);
    upstream.on('error', end);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `redis://127.0.0.1:${port}`,
    setDelayMs: (ms) => void (delayMs = ms),
    close: async () => {
      for (const s of sockets) s.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
