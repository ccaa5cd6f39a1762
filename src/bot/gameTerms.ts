/**
 * The words every record of a game uses: the board sizes a game may have, how it ended and
 * what that was for the bot. Apart from the records (records.ts, communityRecords.ts), which
 * both use them, so neither imports the other for them.
 */

/** How a game ended for the bot. `abandoned`: it expired, idle. */
export type Outcome = 'bot-won' | 'bot-lost' | 'draw' | 'abandoned';
export type Ending = 'five' | 'resigned' | 'full-board' | 'expired';

export const BOARD_SIZES = [15, 19] as const;
export type BoardSize = (typeof BOARD_SIZES)[number];
