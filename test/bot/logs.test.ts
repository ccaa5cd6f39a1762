// The JSON log (LOG_FORMAT=json): one object a line, levels by name, the detail's fields at
// the top level, secrets redacted by field name; and the Discord edge's scrubbing of
// interaction and webhook tokens out of any logged string (a REST error's text).
import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { createJsonLog } from '../../src/bot/jsonLog.ts';
import { contextLog, scrub } from '../../src/discord/interactions.ts';

function captured(): { stream: Writable & { write: (s: string) => boolean }; lines: () => Record<string, unknown>[] } {
  let text = '';
  const stream = new Writable({
    write(chunk, _encoding, done) {
      text += String(chunk);
      done();
    },
  });
  return { stream: stream as Writable & { write: (s: string) => boolean }, lines: () => text.trim().split('\n').map((l) => JSON.parse(l) as Record<string, unknown>) };
}

describe('the JSON log', () => {
  it('writes one object a line at the level asked and above, with the detail at the top level', () => {
    const { stream, lines } = captured();
    const log = createJsonLog('info', stream);
    log.debug('not shown');
    log.info('game over', { guildId: '1', outcome: 'bot-won', moves: 12 });
    log.error('a line with "quotes"\nand a newline');
    const [first, second] = lines();
    expect(lines()).toHaveLength(2);
    expect(first).toMatchObject({ level: 'info', msg: 'game over', guildId: '1', outcome: 'bot-won', moves: 12, pid: process.pid });
    expect(new Date(first.time as string).toISOString()).toBe(first.time);
    expect(second).toMatchObject({ level: 'error', msg: 'a line with "quotes"\nand a newline' });
  });

  it('redacts fields named like secrets, at the top level and one level down', () => {
    const { stream, lines } = captured();
    createJsonLog('info', stream).warn('oops', { token: 'abc', request: { authorization: 'Bot xyz', path: '/x' } });
    expect(lines()[0]).toMatchObject({ token: '***', request: { authorization: '***', path: '/x' } });
  });
});

describe('scrubbing tokens out of logged strings', () => {
  it('shortens interaction and webhook tokens in REST paths to ***', () => {
    const error = 'DiscordAPIError[10062]: Unknown interaction at POST /api/v10/interactions/1234/aW50ZXJhY3Rpb246c2VjcmV0/callback';
    expect(scrub({ error })).toEqual({ error: 'DiscordAPIError[10062]: Unknown interaction at POST /api/v10/interactions/1234/***/callback' });
    expect(scrub({ url: '/webhooks/99/tok-en_1/messages/@original', n: 3 })).toEqual({ url: '/webhooks/99/***/messages/@original', n: 3 });
    const plain = { guildId: '1' };
    expect(scrub(plain)).toBe(plain);
  });

  it('is applied by the bot logger to every line', () => {
    const { stream, lines } = captured();
    contextLog(createJsonLog('info', stream)).error('answering an interaction failed', { error: 'at /interactions/5/secret-token/callback' });
    expect(lines()[0].error).toBe('at /interactions/5/***/callback');
  });
});
