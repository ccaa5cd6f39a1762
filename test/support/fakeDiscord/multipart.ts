/**
 * Reading `multipart/form-data` (RFC 7578), as discord.js sends a message with files: one part
 * per file, named `files[0]`, `files[1]`, … with a `filename`, and a `payload_json` part holding
 * the JSON body. The body is split at the boundary line by line of bytes, so file contents (PNG
 * bytes, which may hold CR LF) come back exactly as sent.
 */

export interface Part {
  /** The form field name from Content-Disposition, e.g. `files[0]` or `payload_json`. */
  readonly name: string;
  /** The file name, for a file part. */
  readonly filename: string | undefined;
  readonly contentType: string | undefined;
  readonly data: Buffer;
}

export class MultipartError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'MultipartError';
  }
}

/** The boundary parameter of a `multipart/form-data` Content-Type, or undefined for other types. */
export function boundaryOf(contentType: string | undefined): string | undefined {
  if (contentType === undefined) return undefined;
  const [type, ...params] = contentType.split(';');
  if (type.trim().toLowerCase() !== 'multipart/form-data') return undefined;
  for (const param of params) {
    const eq = param.indexOf('=');
    if (eq < 0) continue;
    if (param.slice(0, eq).trim().toLowerCase() !== 'boundary') continue;
    const value = param.slice(eq + 1).trim();
    return value.startsWith('"') && value.endsWith('"') && value.length >= 2 ? value.slice(1, -1) : value;
  }
  return undefined;
}

const CRLF = Buffer.from('\r\n');
const HEADER_END = Buffer.from('\r\n\r\n');

/**
 * The parts of a body. A body is: optional preamble, then `--boundary CRLF headers CRLF CRLF data`
 * repeated with each data ending at `CRLF --boundary`, then `--boundary--`. Throws a
 * MultipartError saying where the body departs from that.
 */
export function parseMultipart(body: Buffer, boundary: string): Part[] {
  if (boundary === '') throw new MultipartError('empty boundary');
  const delimiter = Buffer.from(`--${boundary}`);
  const nextDelimiter = Buffer.from(`\r\n--${boundary}`);
  let pos = body.indexOf(delimiter);
  if (pos < 0) throw new MultipartError('the boundary does not occur in the body');
  const parts: Part[] = [];
  for (;;) {
    pos += delimiter.length;
    if (body[pos] === 0x2d && body[pos + 1] === 0x2d) return parts; // `--boundary--` closes the body
    while (body[pos] === 0x20 || body[pos] === 0x09) pos++; // transport padding (RFC 2046 §5.1.1)
    if (body.indexOf(CRLF, pos) !== pos) throw new MultipartError(`no line break after a boundary at byte ${pos}`);
    pos += CRLF.length;
    const headerEnd = body.indexOf(HEADER_END, pos);
    if (headerEnd < 0) throw new MultipartError(`a part's headers do not end (from byte ${pos})`);
    const headers = parseHeaders(body.subarray(pos, headerEnd).toString('utf8'));
    const dataStart = headerEnd + HEADER_END.length;
    const dataEnd = body.indexOf(nextDelimiter, dataStart);
    if (dataEnd < 0) throw new MultipartError(`a part is not closed by a boundary (from byte ${dataStart})`);
    const disposition = headers.get('content-disposition');
    if (disposition === undefined) throw new MultipartError(`a part has no Content-Disposition (byte ${pos})`);
    const { type, params } = parseDisposition(disposition);
    const name = params.get('name');
    if (type !== 'form-data' || name === undefined) {
      throw new MultipartError(`a part's Content-Disposition is not form-data with a name: ${disposition}`);
    }
    parts.push({
      name,
      filename: params.get('filename'),
      contentType: headers.get('content-type'),
      data: Buffer.from(body.subarray(dataStart, dataEnd)),
    });
    pos = dataEnd + CRLF.length;
  }
}

function parseHeaders(text: string): Map<string, string> {
  const headers = new Map<string, string>();
  for (const line of text.split('\r\n')) {
    const colon = line.indexOf(':');
    if (colon <= 0) throw new MultipartError(`not a header line: ${JSON.stringify(line)}`);
    headers.set(line.slice(0, colon).trim().toLowerCase(), line.slice(colon + 1).trim());
  }
  return headers;
}

/**
 * `form-data; name="files[0]"; filename="board.png"`. Quoted values may hold `;`. undici (which
 * discord.js's FormData comes from) writes `"`, CR and LF in names as `%22`, `%0D`, `%0A`, as the
 * HTML form encoding does; those are turned back.
 */
function parseDisposition(value: string): { type: string; params: Map<string, string> } {
  const semicolon = value.indexOf(';');
  const type = (semicolon < 0 ? value : value.slice(0, semicolon)).trim().toLowerCase();
  const params = new Map<string, string>();
  const param = /;\s*([^=;\s]+)\s*=\s*(?:"((?:[^"\\]|\\.)*)"|([^;]*))/g;
  for (const m of value.slice(Math.max(semicolon, 0)).matchAll(param)) {
    const raw = m[2] !== undefined ? m[2].replace(/\\(.)/g, '$1') : m[3].trim();
    params.set(m[1].toLowerCase(), raw.replace(/%22/g, '"').replace(/%0D/gi, '\r').replace(/%0A/gi, '\n'));
  }
  return { type, params };
}
