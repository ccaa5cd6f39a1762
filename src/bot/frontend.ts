/**
 * How a front end writes what the bot says: Discord and the terminal game word the same
 * sentences, each naming commands, members, dates and channels its own way (words.ts holds
 * the two). Apart from the words, so the modules that make sentences (words.ts,
 * communityProblems.ts, communityWords.ts) can take one without importing each other.
 */
export interface Frontend {
  /** How a command is written for the user: `/move` on Discord, `move` in the terminal. */
  command(name: string): string;
  /** The member, at the start of a public sentence: `<@id>` on Discord, `You` in the terminal. */
  who(userId: string): string;
  /** Whose, inside a sentence: `<@id>'s` on Discord, `your` in the terminal. */
  whose(userId: string): string;
  /** Where to find vacant points to play. */
  readonly pointHelp: string;
  /** A moment, for a reader: Discord shows a timestamp in each member's own time zone. */
  date(ms: number): string;
  /** A channel, by its id: a link on Discord. */
  channel(channelId: string): string;
  /** Where a member's game is, in a sentence: "in this channel" on Discord, "here" in the terminal (which has no channels). */
  readonly inChannel: string;
  /** Whose memory it is, in a sentence: "in this server" on Discord, "here" in the terminal (which has no servers). */
  readonly inServer: string;
  /** The library's title: "This server's library" on Discord, "My library" in the terminal. */
  readonly libraryTitle: string;
  /** How the member plays a move, after "Your move (black): ": the command on Discord, a bare point in the terminal. */
  readonly howToMove: string;
  /** Whether there are servers to speak of — sharing with the pool among them (Discord) — or one memory (the terminal). */
  readonly servers: boolean;
}
