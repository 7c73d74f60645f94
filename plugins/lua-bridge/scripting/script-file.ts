// A script's source file: a regular file of bounded size. A device (/dev/zero) or a FIFO given as a
// script would stream without end or block the reader, so neither is ever read. No Lua here.
import { closeSync, constants, fstatSync, openSync, readFileSync, statSync, type Stats } from 'node:fs';

export const MAX_SCRIPT_BYTES = 4 * 1024 * 1024;

/** Why `file` (with these stats) cannot be a script, or null when it can. */
export function scriptFileProblem(file: string, stats: Stats): string | null {
  if (!stats.isFile()) return `${file} is not a regular file (${kindOf(stats)}); a script must be a .lua file`;
  if (stats.size > MAX_SCRIPT_BYTES)
    return `${file} is too large for a script (${stats.size} bytes; the limit is ${MAX_SCRIPT_BYTES})`;
  return null;
}

/** Checks without opening (opening a FIFO blocks): null when `file` is a readable script, else why not. */
export function checkScriptFile(file: string): string | null {
  const stats = statSync(file, { throwIfNoEntry: false });
  return stats ? scriptFileProblem(file, stats) : `${file} does not exist`;
}

/**
 * Reads a script's source, checking the opened file itself (non-blocking open: a FIFO never blocks). Throws an Error
 * naming the file.
 */
export function readScriptFile(file: string): string {
  const fd = openSync(file, constants.O_RDONLY | constants.O_NONBLOCK);
  try {
    const problem = scriptFileProblem(file, fstatSync(fd));
    if (problem !== null) throw new Error(problem);
    return readFileSync(fd, 'utf8');
  } finally {
    closeSync(fd);
  }
}

function kindOf(stats: Stats): string {
  if (stats.isDirectory()) return 'a folder';
  if (stats.isCharacterDevice() || stats.isBlockDevice()) return 'a device';
  if (stats.isFIFO()) return 'a named pipe';
  if (stats.isSocket()) return 'a socket';
  return 'not a file';
}
