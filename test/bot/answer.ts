// The bot's answer to an interaction on the fake Discord, however it came: a reply, a deferral
// then an edit, or a private follow-up.
import { isCallback, type BotResponse, type FakeFile, type FakeInteraction } from '../support/fakeDiscord/index.ts';

const EPHEMERAL = 64;

export interface Answer {
  readonly content: string;
  readonly files: readonly FakeFile[];
  readonly ephemeral: boolean;
  readonly messageId: string | undefined;
  readonly customIds: string[];
}

export async function answerOf(i: FakeInteraction, timeoutMs = 8000): Promise<Answer> {
  const first = await i.waitForResponse(isCallback(), timeoutMs);
  let final: BotResponse = first;
  if (first.type === 5 || first.type === 6) final = await i.waitForResponse((r) => r.kind === 'followup' || r.kind === 'edit', timeoutMs);
  const message = 'message' in final ? final.message : undefined;
  const components = (message?.components ?? []) as { components?: { custom_id?: string }[] }[];
  return {
    content: message?.content ?? '',
    files: final.files,
    ephemeral: ((message?.flags ?? 0) & EPHEMERAL) !== 0,
    messageId: message?.id,
    customIds: components.flatMap((row) => (row.components ?? []).map((c) => c.custom_id ?? '')),
  };
}
