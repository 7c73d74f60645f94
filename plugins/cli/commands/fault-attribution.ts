// Which plugin an error thrown outside any hook came from (a plugin's own timer or floating promise):
// read from the error's stack, frame by frame from the top.
// 1. A plugin loaded from a file or package owns the folder of its entry file (and what lies below).
// 2. A frame belongs to the plugin with the deepest such folder containing it; a frame in a folder two
//    plugins share counts only for the one whose entry it is (else it is ambiguous and skipped).
// 3. kbctx's own files never count for a plugin whose folder holds all of kbctx (a single-file plugin
//    next to node_modules/kbctx); bundled plugins are kbctx and have no entry.
// Pure: no process state; the caller decides what to do with the answer.
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export interface PluginLocation {
  name: string;
  /** Absolute path of the file the plugin was imported from. */
  entry: string;
}

/**
 * The file of each stack frame, top first (`at f (/a/b.ts:1:2)`, `at file:///a/b.mjs:1:2`); node: and internal frames
 * dropped.
 */
export function stackFiles(stack: string): string[] {
  const files: string[] = [];
  for (const line of stack.split('\n')) {
    const m = /^\s*at (?:.*?\()?((?:file:\/\/)?\/[^()]*?):\d+:\d+\)?\s*$/.exec(line);
    if (!m) continue;
    try {
      files.push(m[1]!.startsWith('file://') ? fileURLToPath(m[1]!) : m[1]!);
    } catch {
      // not a path we can read: skipped
    }
  }
  return files;
}

/** The plugin whose files the error's stack runs through first, or undefined (kbctx, a library, no stack). */
export function pluginOfError(
  error: unknown,
  plugins: readonly PluginLocation[],
  kbctxRoot: string,
): string | undefined {
  const stack = (error as { stack?: unknown } | null)?.stack;
  if (typeof stack !== 'string') return undefined;
  const owners = plugins.map((p) => ({
    name: p.name,
    entry: path.resolve(p.entry),
    folder: path.dirname(path.resolve(p.entry)),
  }));
  const root = path.resolve(kbctxRoot);
  for (const file of stackFiles(stack)) {
    const candidates = owners.filter((o) => inside(o.folder, file) && !(inside(root, file) && inside(o.folder, root)));
    if (candidates.length === 0) continue;
    const deepest = Math.max(...candidates.map((c) => c.folder.length));
    const best = candidates.filter((c) => c.folder.length === deepest);
    const chosen = best.length === 1 ? best[0] : best.find((c) => c.entry === file);
    if (chosen) return chosen.name;
  }
  return undefined;
}

/** `file` is `folder` itself or below it. */
function inside(folder: string, file: string): boolean {
  const rel = path.relative(folder, file);
  return rel === '' || (!rel.startsWith('..') && !path.isAbsolute(rel));
}
