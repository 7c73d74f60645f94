// One server log line from any text: control characters escaped (a newline, CR, ESC or a Unicode line
// separator cannot start a forged line or drive the terminal) and the length capped. Every log sink
// writes through `toLogLine` (serve's log, the library's default log, Lua script logs, warnings).

/** Characters past which a log line is cut (a stack trace fits; a 100 KB client string does not). */
export const MAX_LOG_LINE = 4096;

// C0 controls, DEL, C1 controls (0x9b is an 8-bit CSI), line/paragraph separators, bidi overrides.
// eslint-disable-next-line no-control-regex -- matching control characters is the point
const UNSAFE = /[\u0000-\u001f\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g;
const NAMED: Record<string, string> = { '\n': '\\n', '\r': '\\r', '\t': '\\t' };

export function toLogLine(text: string): string {
  const escaped = text.replace(UNSAFE, (c) => NAMED[c] ?? `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
  return escaped.length <= MAX_LOG_LINE
    ? escaped
    : `${escaped.slice(0, MAX_LOG_LINE)}… (${escaped.length - MAX_LOG_LINE} more characters)`;
}

/**
 * A multi-line message (a CLI error) made safe line by line: each line as `toLogLine` makes it, so a
 * 3 MB config key is cut after MAX_LOG_LINE characters and cannot drive the terminal; newlines stay.
 */
export const toSafeLines = (text: string): string => text.split('\n').map(toLogLine).join('\n');

/** A log function writing one safe line per call through `write`. */
export const lineLog =
  (write: (text: string) => void) =>
  (line: string): void =>
    write(`${toLogLine(line)}\n`);
