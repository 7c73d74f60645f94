// The cli plugin's contract entry (ADR 0160, 0170): what the commands other plugins add through the
// `commands` hook use — the `kbctx.cli` service (the CLI's context: output, --json, the config and the
// host), provided by the runner before it calls the hook, and the helpers for tables, progress lines
// and `key=value` arguments (defined here: one module fewer at start-up). Light: the helpers' files
// load nothing but core's plugin entry.
import { badRequest, createServiceRef } from '../../core/api/plugin.ts';
import type { CliContext } from './context.ts';

export type { CliContext, CliIO, GlobalOptions } from './context.ts';
export const cliService = createServiceRef<CliContext>('kbctx.cli');
export { formatBytes, formatTable } from './table.ts';
export { createProgress, progressEveryMs, type ProgressOptions } from './progress.ts';
export { createProgressLines, formatDuration } from './progress-lines.ts';

// `--param k=v` / `--arg k=v` flags → an object. Values are JSON when they parse (numbers, booleans,
// arrays), else strings; `asString` lists keys that always stay strings (string-typed parameters).
export const collect = (value: string, previous: string[]): string[] => [...previous, value];

export function parseKeyValues(
  pairs: readonly string[],
  asString: ReadonlySet<string> = new Set(),
): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const pair of pairs) {
    const eq = pair.indexOf('=');
    if (eq <= 0) throw badRequest(`expected key=value, got '${pair}'`);
    const key = pair.slice(0, eq);
    const raw = pair.slice(eq + 1);
    // Defined, not assigned: `--param __proto__=…` stays an own key, which validation then refuses.
    Object.defineProperty(out, key, {
      value: asString.has(key) ? raw : parseLoose(raw),
      enumerable: true,
      writable: true,
      configurable: true,
    });
  }
  return out;
}

function parseLoose(raw: string): unknown {
  try {
    return JSON.parse(raw);
  } catch {
    return raw;
  }
}
