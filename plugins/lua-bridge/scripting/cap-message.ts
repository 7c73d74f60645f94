// Bounds a script's error message before it becomes a response, a CLI line or a log line: a script
// may raise `error(string.rep("x", 1e7))`, and that must not turn into a 10 MiB answer. Pure.

/** Longest error message a script call reports, in characters (the rest is cut). */
export const MAX_SCRIPT_MESSAGE_CHARS = 4000;
const MARK = '… (truncated)';

/** `message` unchanged when short enough, else its start (never half a surrogate pair) and "… (truncated)". */
export function capMessage(message: string, max = MAX_SCRIPT_MESSAGE_CHARS): string {
  if (message.length <= max) return message;
  let end = max - MARK.length;
  const last = message.charCodeAt(end - 1);
  if (last >= 0xd800 && last <= 0xdbff) end--; // a high surrogate whose pair would be cut off
  return message.slice(0, end) + MARK;
}
