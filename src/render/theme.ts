/**
 * Everything the renderer needs to know about how a board looks, as plain data. An image is a
 * pure function of a snapshot and a theme (after lila-gif), so two renders with the same pair
 * give the same bytes; nothing in the drawing code picks a colour or a size of its own.
 *
 * Lengths are in cells (the distance between two neighbouring lines) unless the name ends in
 * `Px`, so one theme serves every board size and the small mnemonics alike.
 */

/** An sRGB colour as three 0..255 channels, for the parts made pixel by pixel (the wood). */
export type Rgb = readonly [number, number, number];

/**
 * A procedural wood texture, generated once per spec (see wood.ts). The grain runs top to
 * bottom, as on a straight-grained (masame) board; straight grain also keeps the PNG small,
 * since each row of pixels is nearly the row above it.
 */
export interface WoodSpec {
  /** Seed for the project's generator: the same spec always gives the same texture. */
  readonly seed: number;
  readonly widthPx: number;
  readonly heightPx: number;
  /** Early wood, between the grain lines. */
  readonly light: Rgb;
  /** Late wood, the grain lines themselves. */
  readonly dark: Rgb;
  /** How far (0..1) the darkest grain line goes from `light` towards `dark`. */
  readonly grain: number;
  /** Amplitude of the broad lighter and darker bands across the board, as a fraction of brightness. */
  readonly bands: number;
  /** How many pixels the grain wanders sideways over the texture's height. */
  readonly driftPx: number;
}

/**
 * How one colour of stone is shaded: a radial gradient lit from the upper left, given as
 * (offset, colour) stops from the highlight (0) to the rim (1). A flat stretch in the middle
 * (two stops of one colour) reads as a glossy stone and compresses a little better than a
 * gradient across the whole stone.
 */
export interface StoneStyle {
  readonly shade: readonly (readonly [number, string])[];
  /** A thin outline, so that a light stone stands off light wood; null for none. */
  readonly outline: string | null;
  /** Text drawn on this stone (move numbers): a colour that contrasts with the stone. */
  readonly text: string;
}

/** Markers for one side's realisations. */
export interface SideMarks {
  /** Fill of an explicit node's numbered disc and stroke of an implicit node's square. */
  readonly colour: string;
  /** The label on a disc. */
  readonly text: string;
}

export interface Theme {
  /** Cell size in pixels on a full board. */
  readonly cellPx: number;
  /**
   * Small boards get larger cells so that the grid spans at least this many pixels; a 5×5
   * board drawn with 19×19 cells would be a thumbnail.
   */
  readonly minGridPx: number;
  readonly wood: WoodSpec;
  readonly grid: {
    readonly colour: string;
    readonly lineWidthPx: number;
    readonly borderWidthPx: number;
    /** Radius of a star point (hoshi). */
    readonly starRadius: number;
  };
  readonly coordinates: {
    readonly show: boolean;
    readonly colour: string;
    /** Font size as a fraction of a cell, clamped to [minPx, maxPx]. */
    readonly size: number;
    readonly minPx: number;
    readonly maxPx: number;
    /** Gap between the outer line's stone edge and the label, in label heights. */
    readonly gap: number;
  };
  readonly font: {
    readonly family: string;
    /** For titles on a mnemonic sheet: descriptions read best in fixed width. */
    readonly monoFamily: string;
  };
  readonly stones: {
    readonly radius: number;
    readonly black: StoneStyle;
    readonly white: StoneStyle;
    /** A soft shadow below and to the right of each stone. */
    readonly shadow: { readonly colour: string; readonly offset: number };
  };
  readonly moveNumbers: {
    /** Font size for one or two digits; three digits shrink by `shrink3`. */
    readonly size: number;
    readonly shrink3: number;
  };
  readonly lastMove: {
    readonly colour: string;
    /** Ring radius on a plain stone, and on a numbered stone (where it goes round the digits). */
    readonly radius: number;
    readonly numberedRadius: number;
    readonly width: number;
  };
  readonly winningLine: {
    /** A capsule drawn under the five stones: its border and its fill. */
    readonly border: string;
    readonly fill: string;
    /** Half the capsule's width. */
    readonly halfWidth: number;
    readonly borderPx: number;
  };
  readonly realisations: {
    readonly black: SideMarks;
    readonly white: SideMarks;
    /** Radius of an explicit node's disc. */
    readonly nodeRadius: number;
    /** Ring round a disc, so that discs stay apart from stones and grain. */
    readonly halo: string;
    /**
     * Half the side of an implicit node's square: alone on its point, and as a frame round
     * discs; a second square on the same point is `implicitStep` larger. Then its stroke, and
     * the light fill that keeps grid lines from running through it.
     */
    readonly implicitHalf: number;
    readonly implicitAround: number;
    readonly implicitStep: number;
    readonly implicitWidth: number;
    readonly implicitFill: string;
    /** Label size as a fraction of the disc's radius. */
    readonly labelSize: number;
  };
  readonly mnemonic: {
    readonly cellPx: number;
    /** Wood beyond the outermost intersection in view, where the board goes on or where it ends. */
    readonly edge: number;
  };
  readonly sheet: {
    readonly background: string;
    readonly text: string;
    readonly titlePx: number;
    readonly paddingPx: number;
    readonly columns: number;
    readonly minColumnPx: number;
  };
  /**
   * The /hint heat map (heat.ts): a translucent square on each point the player weighs, from
   * `low` to `high` with its weight, at most `maxAlpha` opaque; points under `floor` of the best
   * are left bare. The hinted point gets a ring.
   */
  readonly heat: {
    readonly low: Rgb;
    readonly high: Rgb;
    readonly maxAlpha: number;
    readonly floor: number;
    readonly ring: string;
  };
  /** Animated replays (gif.ts): the board's cell size and how long each kind of frame shows. */
  readonly replay: {
    readonly cellPx: number;
    /** An ordinary move. */
    readonly moveMs: number;
    /** A move where a learned subgoal's realisation is drawn: long enough to look at it. */
    readonly markedMs: number;
    /** The last frame, with the five: the end is held before the replay starts again. */
    readonly lastMs: number;
  };
  /** zlib level for the PNG: 6 is libpng's default and the best size for the time here. */
  readonly pngCompression: 0 | 1 | 2 | 3 | 4 | 5 | 6 | 7 | 8 | 9;
  /**
   * The PNG row filter (PNG spec, section 9): one for every row, or `adaptive`, libpng's
   * default, which tries all five on every row and keeps the smallest-looking.
   */
  readonly pngFilter: PngFilter;
}

export type PngFilter = 'none' | 'sub' | 'up' | 'average' | 'paeth' | 'adaptive';

export const defaultTheme: Theme = deepFreeze({
  // 32 px cells put a 19×19 board at 661 px square: legible move numbers, and a mid-game
  // PNG near 100 KB (120 KB numbered); 36 px went over 150 KB numbered.
  cellPx: 32,
  minGridPx: 320,
  wood: {
    seed: 0x6b617961, // "kaya"
    widthPx: 1024,
    heightPx: 1024,
    light: [233, 189, 114],
    dark: [168, 112, 50],
    grain: 0.6,
    bands: 0.09,
    driftPx: 12,
  },
  grid: { colour: '#3b2a16', lineWidthPx: 1, borderWidthPx: 2, starRadius: 0.11 },
  coordinates: { show: true, colour: '#3b2a16', size: 0.42, minPx: 11, maxPx: 18, gap: 0.75 },
  font: { family: 'DejaVu Sans', monoFamily: 'DejaVu Sans Mono' },
  stones: {
    radius: 0.47,
    black: {
      shade: [
        [0, '#8c8c8c'],
        [0.3, '#222222'],
        [0.75, '#222222'],
        [1, '#050505'],
      ],
      outline: null,
      text: '#ffffff',
    },
    white: {
      shade: [
        [0, '#ffffff'],
        [0.3, '#eeeeee'],
        [0.75, '#eeeeee'],
        [1, '#b0b0b0'],
      ],
      outline: 'rgba(40, 30, 20, 0.55)',
      text: '#111111',
    },
    shadow: { colour: 'rgba(40, 24, 6, 0.45)', offset: 0.06 },
  },
  moveNumbers: { size: 0.44, shrink3: 0.8 },
  lastMove: { colour: '#e0241b', radius: 0.22, numberedRadius: 0.4, width: 0.075 },
  winningLine: { border: '#1e7a34', fill: '#92e39f', halfWidth: 0.62, borderPx: 2 },
  realisations: {
    black: { colour: '#1b5fc4', text: '#ffffff' },
    white: { colour: '#e0660f', text: '#ffffff' },
    nodeRadius: 0.36,
    halo: 'rgba(255, 255, 255, 0.9)',
    implicitHalf: 0.2,
    implicitAround: 0.5,
    implicitStep: 0.1,
    implicitWidth: 0.09,
    implicitFill: '#fbf4e6',
    labelSize: 1.05,
  },
  mnemonic: { cellPx: 24, edge: 0.55 },
  sheet: { background: '#f6f1e7', text: '#1f1a14', titlePx: 14, paddingPx: 14, columns: 4, minColumnPx: 190 },
  heat: { low: [255, 214, 64], high: [214, 25, 28], maxAlpha: 0.62, floor: 0.25, ring: '#1b5fc4' },
  replay: { cellPx: 32, moveMs: 500, markedMs: 3000, lastMs: 5000 },
  pngCompression: 6,
  // No filter: the wood's grain is noise that no predictor guesses, so filtering only costs
  // time. A 19×19 mid-game encodes in 8 ms instead of 18 and comes out 90 KB instead of 103
  // (bench/load.ts spends most of its play workers' time encoding pictures).
  pngFilter: 'none',
});

function deepFreeze<T>(value: T): T {
  if (typeof value === 'object' && value !== null) {
    for (const inner of Object.values(value)) deepFreeze(inner);
    Object.freeze(value);
  }
  return value;
}
