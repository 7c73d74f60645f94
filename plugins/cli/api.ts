// The cli plugin's contract entry (ADR 0160, 0170): what the commands other plugins add through the
// `commands` hook use — the `kbctx.cli` service (the CLI's context: output, --json, the config and the
// host), provided by the runner before it calls the hook, and the helpers for tables, progress lines
// and `key=value` arguments (defined here: one module fewer at start-up). Light: the helpers' files
// load nothing but core's plugin entry, and only when a command first calls one (`kbctx search` does not).
import { badRequest, createServiceRef, requireOwn } from '../../core/api/plugin.ts';
import type { CliContext } from './context.ts';
import type * as Table from './table.ts';
import type * as Progress from './progress.ts';
import type * as ProgressLines from './progress-lines.ts';

export type { CliContext, CliIO, GlobalOptions } from './context.ts';
export type { ProgressOptions } from './progress.ts';
export const cliService = createServiceRef<CliContext>('kbctx.cli');

// The helpers' modules are required on first call (ADR 0130: a command that prints no table loads none).
const table = (): typeof Table => requireOwn(import.meta.url, './table.ts');
const progress = (): typeof Progress => requireOwn(import.meta.url, './progress.ts');
const progressLines = (): typeof ProgressLines => requireOwn(import.meta.url, './progress-lines.ts');
export const formatTable: typeof Table.formatTable = (...args) => table().formatTable(...args);
export const formatBytes: typeof Table.formatBytes = (bytes) => table().formatBytes(bytes);
export const createProgress: typeof Progress.createProgress = (...args) => progress().createProgress(...args);
export const progressEveryMs: typeof Progress.progressEveryMs = (env) => progress().progressEveryMs(env);
export const createProgressLines: typeof ProgressLines.createProgressLines = (...args) =>
  progressLines().createProgressLines(...args);
export const formatDuration: typeof ProgressLines.formatDuration = (seconds) => progressLines().formatDuration(seconds);

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
