/** Opening the embedded back end: Keyv over `KeyvFileStore` in the data folder. */
import { access, mkdir } from 'node:fs/promises';
import { constants } from 'node:fs';
import { KeyvBackend, type Backend, type ListingAdapter } from './backend.ts';
import { KeyvFileStore } from './fileStore.ts';

export interface FileBackendOptions {
  readonly dir: string;
  readonly namespace: string;
  /** Limit for one operation (default 5000 ms; a disk is slow, not gone). */
  readonly opTimeoutMs?: number;
  /** fsync each write (default true). */
  readonly durable?: boolean;
  /** See KeyvBackendOptions. */
  readonly writeSettleMs?: number;
}

export async function openFileBackend(options: FileBackendOptions): Promise<Backend> {
  const store = new KeyvFileStore({ dir: options.dir, namespace: options.namespace, durable: options.durable });
  return new KeyvBackend({
    kind: 'file',
    namespace: options.namespace,
    adapter: store as unknown as ListingAdapter,
    opTimeoutMs: options.opTimeoutMs ?? 5000,
    ...(options.writeSettleMs !== undefined ? { writeSettleMs: options.writeSettleMs } : {}),
    ping: async () => {
      await mkdir(store.dir, { recursive: true });
      await access(store.dir, constants.R_OK | constants.W_OK);
    },
    rename: (from, to) => store.rename(from, to),
    release: () => store.disconnect(),
  });
}
