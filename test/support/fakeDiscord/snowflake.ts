/**
 * Snowflake ids as Discord makes them: milliseconds since the Discord epoch (2015-01-01) in the
 * top 42 bits, then 22 bits the fake uses as a counter. Strictly increasing within a process,
 * so ids sort by creation as real ones do, and 17 to 19 digits long as discord.js's rate-limit
 * bucketing expects (@discordjs/rest `generateRouteData` matches `\d{17,19}`).
 */
const DISCORD_EPOCH = 1_420_070_400_000n;

let last = 0n;

export function snowflake(at: number = Date.now()): string {
  const candidate = (BigInt(at) - DISCORD_EPOCH) << 22n;
  last = candidate > last ? candidate : last + 1n;
  return last.toString();
}

/** A random token like an interaction or session token: opaque, URL-safe. */
export function randomToken(prefix: string): string {
  const bytes = new Uint8Array(24);
  crypto.getRandomValues(bytes);
  return `${prefix}.${Buffer.from(bytes).toString('base64url')}`;
}
