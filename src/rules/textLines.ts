/**
 * Lines of a text file as every notation of this project reads them: a line ends at `\n`
 * (Unix), `\r\n` (Windows) or a lone `\r` (classic Mac OS, and some editors and paste
 * buffers still write it). Reading only `\n` made a CR-only file one long line, so a board
 * was "1 row" and a game record's comment swallowed every move after it.
 */
export const LINE_END = /\r\n?|\n/;

/** The text's lines, without their ends; line n of an error is `splitLines(text)[n - 1]`. */
export function splitLines(text: string): string[] {
  return text.split(LINE_END);
}
