// Types for the part of gifenc (a CommonJS package without types) that src/render/gif.ts uses.
// gif.ts loads it with require: its main is esbuild's CommonJS, whose named exports Node's ESM
// loader cannot list, and whose default export differs between Node and tsx.
declare module 'gifenc' {
  export type PaletteColour = [number, number, number] | [number, number, number, number];
  export type Palette = PaletteColour[];

  export interface FrameOptions {
    /** Required on the first frame: it becomes the global colour table. */
    readonly palette?: Palette;
    /** Frame delay in milliseconds (written in hundredths of a second). */
    readonly delay?: number;
    readonly transparent?: boolean;
    readonly transparentIndex?: number;
    /** -1 once, 0 forever, n times. */
    readonly repeat?: number;
    /** GIF disposal method; -1: gifenc's own choice (2, restore to background, when transparent). */
    readonly dispose?: number;
  }

  export interface Encoder {
    writeFrame(index: Uint8Array, width: number, height: number, options?: FrameOptions): void;
    finish(): void;
    bytes(): Uint8Array;
    /** The bytes written so far, without a copy (a view that a later write may replace). */
    bytesView(): Uint8Array;
  }

  export function GIFEncoder(options?: { readonly initialCapacity?: number; readonly auto?: boolean }): Encoder;
  export function quantize(rgba: Uint8Array | Uint8ClampedArray, maxColours: number, options?: { readonly format?: 'rgb565' | 'rgb444' | 'rgba4444' }): Palette;
}
