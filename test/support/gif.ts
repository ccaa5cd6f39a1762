// A GIF reader for the tests, written from the GIF89a specification: it parses every block,
// decodes each frame's LZW data and composites the frames as a viewer would (transparency,
// disposal, frame position), so a test can look at the pixels of any frame of a replay.
// gifenc has no decoder, and node-canvas reads only a GIF's first frame.

export interface GifFrame {
  readonly left: number;
  readonly top: number;
  readonly width: number;
  readonly height: number;
  /** In milliseconds (the file holds hundredths of a second). */
  readonly delayMs: number;
  readonly disposal: number;
  readonly transparentIndex: number | undefined;
  /** Palette indices, row by row. */
  readonly indices: Uint8Array;
  readonly palette: readonly [number, number, number][];
}

export interface Gif {
  readonly width: number;
  readonly height: number;
  /** The NETSCAPE2.0 loop count (0: for ever), when present. */
  readonly loops: number | undefined;
  readonly frames: readonly GifFrame[];
  /** What a viewer shows once frame k has been drawn: RGB, row by row. */
  screen(k: number): { at(x: number, y: number): [number, number, number] };
}

export function decodeGif(bytes: Uint8Array): Gif {
  let at = 0;
  const fail = (why: string): never => {
    throw new Error(`not a GIF this reader can read: ${why} at byte ${at}`);
  };
  const u8 = () => (at < bytes.length ? bytes[at++] : fail('unexpected end'));
  const u16 = () => u8() | (u8() << 8);
  const header = String.fromCharCode(...bytes.subarray(0, 6));
  if (header !== 'GIF89a' && header !== 'GIF87a') fail(`header ${JSON.stringify(header)}`);
  at = 6;
  const width = u16();
  const height = u16();
  const packed = u8();
  u8(); // background colour index
  u8(); // pixel aspect ratio
  const table = (n: number) => Array.from({ length: n }, () => [u8(), u8(), u8()] as [number, number, number]);
  const global = packed & 0x80 ? table(2 << (packed & 7)) : [];
  const subBlocks = (): Uint8Array => {
    const parts: number[] = [];
    for (let n = u8(); n !== 0; n = u8()) for (let i = 0; i < n; i++) parts.push(u8());
    return Uint8Array.from(parts);
  };
  let loops: number | undefined;
  let control = { delayMs: 0, disposal: 0, transparentIndex: undefined as number | undefined };
  const frames: GifFrame[] = [];
  for (;;) {
    const block = u8();
    if (block === 0x3b) break;
    if (block === 0x21) {
      const label = u8();
      const data = subBlocks();
      if (label === 0xf9) {
        control = { disposal: (data[0] >> 2) & 7, delayMs: (data[1] | (data[2] << 8)) * 10, transparentIndex: data[0] & 1 ? data[3] : undefined };
      } else if (label === 0xff && String.fromCharCode(...data.subarray(0, 11)) === 'NETSCAPE2.0') {
        loops = data[12] | (data[13] << 8);
      }
      continue;
    }
    if (block !== 0x2c) fail(`block 0x${block.toString(16)}`);
    const left = u16();
    const top = u16();
    const w = u16();
    const h = u16();
    const flags = u8();
    if (flags & 0x40) fail('interlaced frames');
    const palette = flags & 0x80 ? table(2 << (flags & 7)) : global;
    const minCodeSize = u8();
    const indices = lzwDecode(subBlocks(), minCodeSize, w * h);
    if (left + w > width || top + h > height) fail('a frame outside the screen');
    frames.push({ left, top, width: w, height: h, ...control, indices, palette });
    control = { delayMs: 0, disposal: 0, transparentIndex: undefined };
  }

  const screens = new Map<number, Uint8Array>();
  const screen = (k: number) => {
    let rgb = screens.get(k);
    if (rgb === undefined) {
      rgb = new Uint8Array(width * height * 3);
      for (let j = 0; j <= k; j++) {
        const f = frames[j];
        if (j > 0 && frames[j - 1].disposal === 2) fill(rgb, width, frames[j - 1], [0, 0, 0]);
        for (let y = 0; y < f.height; y++) {
          for (let x = 0; x < f.width; x++) {
            const index = f.indices[y * f.width + x];
            if (index === f.transparentIndex) continue;
            const c = f.palette[index] ?? fail(`index ${index} beyond the palette`);
            rgb.set(c, ((f.top + y) * width + f.left + x) * 3);
          }
        }
      }
      screens.set(k, rgb);
    }
    const pixels = rgb;
    return {
      at: (x: number, y: number): [number, number, number] => {
        const i = (Math.floor(y) * width + Math.floor(x)) * 3;
        return [pixels[i], pixels[i + 1], pixels[i + 2]];
      },
    };
  };
  return { width, height, loops, frames, screen };
}

function fill(rgb: Uint8Array, width: number, f: GifFrame, c: [number, number, number]): void {
  for (let y = 0; y < f.height; y++) for (let x = 0; x < f.width; x++) rgb.set(c, ((f.top + y) * width + f.left + x) * 3);
}

/** GIF's variable-width LZW, as the specification's appendix F describes it. */
function lzwDecode(data: Uint8Array, minCodeSize: number, pixels: number): Uint8Array {
  const out = new Uint8Array(pixels);
  const clear = 1 << minCodeSize;
  const end = clear + 1;
  let size = minCodeSize + 1;
  let prefix = new Int32Array(4096);
  let suffix = new Uint8Array(4096);
  let first = new Uint8Array(4096);
  let length = new Int32Array(4096);
  const reset = () => {
    prefix = new Int32Array(4096);
    suffix = new Uint8Array(4096);
    first = new Uint8Array(4096);
    length = new Int32Array(4096);
    for (let i = 0; i < clear; i++) {
      prefix[i] = -1;
      suffix[i] = i;
      first[i] = i;
      length[i] = 1;
    }
  };
  reset();
  let next = end + 1;
  let previous = -1;
  let written = 0;
  let bits = 0;
  let buffer = 0;
  let pos = 0;
  const emit = (code: number) => {
    const n = length[code];
    if (written + n > pixels) throw new Error('a frame holds more pixels than its size');
    for (let c = code, i = n - 1; i >= 0; i--, c = prefix[c]) out[written + i] = suffix[c];
    written += n;
  };
  for (;;) {
    while (bits < size) {
      if (pos >= data.length) throw new Error('LZW data ended without an end code');
      buffer |= data[pos++] << bits;
      bits += 8;
    }
    const code = buffer & ((1 << size) - 1);
    buffer >>>= size;
    bits -= size;
    if (code === clear) {
      reset();
      size = minCodeSize + 1;
      next = end + 1;
      previous = -1;
      continue;
    }
    if (code === end) break;
    if (previous === -1) {
      if (code >= clear) throw new Error(`LZW code ${code} before any entry`);
      emit(code);
      previous = code;
      continue;
    }
    if (code < next) {
      emit(code);
      if (next < 4096) add(previous, first[code]);
    } else if (code === next) {
      if (next < 4096) add(previous, first[previous]);
      emit(code);
    } else {
      throw new Error(`LZW code ${code} beyond the table (${next})`);
    }
    previous = code;
  }
  if (written !== pixels) throw new Error(`a frame of ${pixels} pixels decoded to ${written}`);
  return out;

  function add(p: number, c: number): void {
    prefix[next] = p;
    suffix[next] = c;
    first[next] = first[p];
    length[next] = length[p] + 1;
    next++;
    if (next === 1 << size && size < 12) size++;
  }
}
