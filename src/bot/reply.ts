/**
 * A reply: what the bot says and shows for one call — text, images and whether only the
 * asker sees it. The views (views.ts and the others) make them; Discord (src/discord/respond.ts)
 * and the terminal game (terminal.ts) send them. An image is drawn when its bytes are first
 * read, or in a worker first (`drawReply`): what to draw is a `Drawing` (picture.ts).
 */
import type { BoardSnapshot } from '../rules/snapshot.ts';
import { draw, type Drawing } from './picture.ts';
import type { BotProblem } from './problems.ts';

export interface ReplyImage {
  readonly name: string;
  readonly png: Buffer;
  /** Alt text. */
  readonly description: string;
  /** What to draw, for an image not drawn yet: its `png` is drawn when first read (picture.ts). */
  readonly drawing?: Drawing;
}

export interface Reply {
  /** Markdown as Discord reads it (`**bold**`, `` `code` ``, code blocks). */
  readonly text: string;
  readonly images: readonly ReplyImage[];
  /** Only the asker sees it (Discord: ephemeral). */
  readonly private: boolean;
  /** The position shown, for front ends that also draw it as text. */
  readonly board?: BoardSnapshot;
  /** Asks the asker to confirm an action with buttons. */
  readonly confirm?: 'reset-memory';
  /** Set when the reply is a problem (nothing changed): for metrics and logs, not shown. */
  readonly problem?: BotProblem['code'];
  /** Other buttons: an invitation's Accept and Decline, /memory adopt's confirmation. */
  readonly buttons?: readonly ReplyButton[];
  /** Members the message notifies (an invitation, the member whose turn it is); others are shown, not pinged. */
  readonly mention?: readonly string[];
}

export interface ReplyButton {
  /** The custom id: the command's name, a colon, then what the command needs to answer it. */
  readonly id: string;
  readonly label: string;
  readonly style: 'primary' | 'secondary' | 'success' | 'danger';
}

/** An image drawn when its bytes are first read, unless drawn elsewhere first (`drawReply`). */
export function picture(name: string, description: string, drawing: Drawing): ReplyImage {
  let png: Buffer | undefined;
  return {
    name,
    description,
    drawing,
    get png(): Buffer {
      return (png ??= draw(drawing));
    },
  };
}

/**
 * The reply with every undrawn picture drawn by `drawElsewhere` (a worker), all at once; images
 * already drawn pass through.
 */
export async function drawReply(reply: Reply, drawElsewhere: (drawing: Drawing) => Promise<Buffer>): Promise<Reply> {
  if (!reply.images.some((i) => i.drawing !== undefined)) return reply;
  const images = await Promise.all(
    reply.images.map(async (i): Promise<ReplyImage> => (i.drawing === undefined ? i : { name: i.name, description: i.description, png: await drawElsewhere(i.drawing) })),
  );
  return { ...reply, images };
}
