/**
 * Redraws the bot's avatar, assets/avatar.png (avatar.ts): `npx tsx src/render/avatarImage.ts`.
 * A test checks the committed file is what the renderer draws.
 */
import { writeFileSync } from 'node:fs';
import { renderAvatar } from './avatar.ts';

const png = renderAvatar();
writeFileSync(new URL('../../assets/avatar.png', import.meta.url), png);
process.stdout.write(`assets/avatar.png: ${(png.length / 1024).toFixed(1)} KB\n`);
