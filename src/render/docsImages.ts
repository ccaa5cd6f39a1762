/**
 * Writes the README's example images to docs/images from the fixed samples:
 * `npx tsx src/render/docsImages.ts`.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { renderBoard, renderThreats } from './board.ts';
import { renderMnemonicSheet } from './mnemonic.ts';
import { finished15, midgame19, midgame19Overlays, mnemonicSamples } from './samples.ts';

const dir = new URL('../../docs/images/', import.meta.url);
mkdirSync(dir, { recursive: true });
const images: [string, Buffer][] = [
  ['board-19.png', renderBoard(midgame19())],
  ['board-19-numbered.png', renderBoard(midgame19(), { showMoveNumbers: true })],
  ['board-15-won.png', renderBoard(finished15(), { showMoveNumbers: true })],
  ['threats.png', renderThreats(midgame19(), midgame19Overlays())],
  ['mnemonics.png', renderMnemonicSheet(mnemonicSamples())],
];
for (const [name, png] of images) {
  writeFileSync(new URL(name, dir), png);
  process.stdout.write(`docs/images/${name}: ${(png.length / 1024).toFixed(1)} KB\n`);
}
