/**
 * The key layout shared by both back ends (see the table in index.ts). A stored key is parts
 * joined by `::`, the separator @keyv/redis puts after its namespace:
 *
 *     <namespace>::<guild>::<collection>::<key>
 *
 * Keyv is told not to prefix keys itself (`useKeyPrefix: false`); the adapter adds
 * `<namespace>::`, so the keys this module builds start at `<guild>`. Guild ids and record keys
 * are percent-encoded, so a part never holds `::` (a guild cannot reach into another's keys by
 * its name) nor a glob character of Redis `SCAN … MATCH` (`*`, `?`, `[`, `]`, `\`), which is
 * what lets `<namespace>::<guild>::*` select exactly one guild.
 */
export const SEPARATOR = '::';

export const COLLECTIONS = ['library', 'games', 'records', 'stats', 'tombstones', 'versus', 'versusRecords', 'ratings', 'settings', 'versions', 'summaries'] as const;
export type CollectionName = (typeof COLLECTIONS)[number];

export function isCollectionName(s: string): s is CollectionName {
  return (COLLECTIONS as readonly string[]).includes(s);
}

/** A namespace is written into Redis patterns and folder names as it is, so it is kept plain. */
const NAMESPACE = /^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$/;

export function isValidNamespace(s: string): boolean {
  return NAMESPACE.test(s);
}

/**
 * Percent-encodes one part: `encodeURIComponent`, plus `*`, which it leaves alone but which
 * is a glob character to `SCAN … MATCH`.
 */
export function encodePart(part: string): string {
  if (part.length === 0) throw new TypeError('storage: a guild id or record key must not be empty');
  return encodeURIComponent(part).replace(/\*/g, '%2A');
}

/** The inverse of `encodePart`; undefined when `encoded` is not something it produced. */
export function decodePart(encoded: string): string | undefined {
  if (encoded.length === 0 || encoded.includes(SEPARATOR)) return undefined;
  try {
    const part = decodeURIComponent(encoded);
    return encodePart(part) === encoded ? part : undefined;
  } catch {
    return undefined;
  }
}

/** `<guild>`: every key of one guild starts with this and the separator. */
export function guildPrefix(guildId: string): string {
  return encodePart(guildId);
}

/** `<guild>::<collection>`: every key of one collection of one guild starts with this and the separator. */
export function collectionPrefix(guildId: string, collection: CollectionName): string {
  return `${guildPrefix(guildId)}${SEPARATOR}${collection}`;
}

/** `<guild>::<collection>::<key>`. */
export function recordKey(guildId: string, collection: CollectionName, key: string): string {
  return `${collectionPrefix(guildId, collection)}${SEPARATOR}${encodePart(key)}`;
}
