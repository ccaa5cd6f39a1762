/**
 * The board's font, loaded from assets/fonts/ (DejaVu Sans, Sans Bold and Sans Mono; licence
 * in assets/README.md) and registered with node-canvas before anything is drawn, so every
 * machine draws the same glyphs: without it, pango picks whatever the system's fontconfig
 * offers for the family — another version of DejaVu, or a different face on a machine
 * without it — and coordinates, move numbers and titles move by a pixel or change shape.
 *
 * Registered once, when this module is first imported: every module of the renderer that
 * makes a canvas imports it, and ES modules run their imports first, so registration comes
 * before the first canvas (node-canvas requires that). The families are the theme's own
 * names, so the theme says which face, and this says where its file is.
 */
import { registerFont } from 'canvas';
import { fileURLToPath } from 'node:url';
import { defaultTheme } from './theme.ts';

export const FONTS_DIR = fileURLToPath(new URL('../../assets/fonts/', import.meta.url));

/** Each file and the face it is registered as. */
export const BOARD_FONTS: readonly { readonly file: string; readonly family: string; readonly weight: 'normal' | 'bold' }[] = [
  { file: 'DejaVuSans.ttf', family: defaultTheme.font.family, weight: 'normal' },
  { file: 'DejaVuSans-Bold.ttf', family: defaultTheme.font.family, weight: 'bold' },
  { file: 'DejaVuSansMono.ttf', family: defaultTheme.font.monoFamily, weight: 'normal' },
];

let registered = false;

export function registerBoardFonts(): void {
  if (registered) return;
  for (const f of BOARD_FONTS) registerFont(`${FONTS_DIR}${f.file}`, { family: f.family, weight: f.weight });
  registered = true;
}

registerBoardFonts();
