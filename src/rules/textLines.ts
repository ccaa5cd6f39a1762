/**
 * Lines of a text file as every notation of this project reads them: a line ends at `\n`
 * (Unix), `\r\n` (Windows) or a lone `\r` (classic Mac OS, and some editors and paste
 * buffers still write it). Reading only `\n` made a CR-only file one long line, so a board
 * was "1 row" and a game record's comment swallowed every move after it.
 */
export const LINE_END = /\r\n?|\n/;

/**
 * Text made to stay on one line of whatever it is written into — a comment of a library file
 * or game record, a Gomocup reply: each run of line breaks and other control characters
 * becomes one space, so it cannot end the line and start one that reads as something else.
 */
export function oneLine(text: string): string {
  // eslint-disable-next-line no-control-regex -- control characters are what it replaces
  return text.replace(/[\u0000-\u001f\u007f-\u009f\u2028\u2029]+/g, ' ').trim();
}

/** The text's lines, without their ends; line n of an error is `splitLines(text)[n - 1]`. */
export function splitLines(text: string): string[] {
  return text.split(LINE_END);
}
