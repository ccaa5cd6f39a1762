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
}
