// Types for the part of the glicko2 package (mmai/glicko2js, 1.2.x; it ships none) that
// ratings.ts uses, read from its glicko2.js. Ratings and deviations are on the familiar 1500
// scale; the package converts to Glicko-2's internal scale itself.
declare module 'glicko2' {
  export interface Glicko2Settings {
    /** The system constant τ, constraining volatility over time (the package's default 0.5). */
    readonly tau?: number;
    /** A new player's rating (1500). */
    readonly rating?: number;
    /** A new player's rating deviation (350). */
    readonly rd?: number;
    /** A new player's volatility (0.06). */
    readonly vol?: number;
  }

  export interface Glicko2Player {
    getRating(): number;
    getRd(): number;
    getVol(): number;
  }

  /** `[player, opponent, score]`: 1 the player won, 0 lost, 0.5 a draw. */
  export type Glicko2Match = readonly [Glicko2Player, Glicko2Player, number];

  export class Glicko2 {
    constructor(settings?: Glicko2Settings);
    makePlayer(rating?: number, rd?: number, vol?: number): Glicko2Player;
    /** One rating period: every player of this instance is updated, those without a game by step 6 only. */
    updateRatings(matches: readonly Glicko2Match[]): void;
  }

  const glicko2: { readonly Glicko2: typeof Glicko2 };
  export default glicko2;
}
