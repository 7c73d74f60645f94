// Structural edits of the user's TOML config: check for a table by parsing, then append a new table
// as text, so the user's comments and layout stay as they are. Existing content is never rewritten,
// except the top-level `plugins = [...]` statement, which `appendPluginEntry` replaces in place.
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { parse as parseToml, stringify } from 'smol-toml';
import { configError } from '../core/domain/errors.ts';

/** True when the config file defines the table at `keys` (e.g. ['tools', 'script', 'web-fetch']). */
export function hasTable(file: string, keys: readonly string[]): boolean {
  if (!existsSync(file)) return false;
  let node: unknown = parseToml(readFileSync(file, 'utf8'));
  for (const key of keys) {
    if (!node || typeof node !== 'object' || !(key in node)) return false;
    node = (node as Record<string, unknown>)[key];
  }
  return true;
}

/** `[a.b."c d"]` with keys quoted only when needed. */
export function tableHeader(keys: readonly string[]): string {
  return `[${keys.map((k) => (/^[A-Za-z0-9_-]+$/.test(k) ? k : JSON.stringify(k))).join('.')}]`;
}

/** Appends `[keys]` with `values` (and optional comment lines) to the file, creating it if needed. */
export function appendTable(
  file: string,
  keys: readonly string[],
  values: Record<string, unknown>,
  comments: readonly string[] = [],
  initial = '',
): string {
  const body = stringify(values).trimEnd();
  const block = [...comments.map((c) => `# ${c}`), tableHeader(keys), body].filter((l) => l !== '').join('\n');
  let current = existsSync(file) ? readFileSync(file, 'utf8') : initial;
  if (current !== '' && !current.endsWith('\n')) current += '\n';
  const next = `${current}${current.trim() === '' ? '' : '\n'}${block}\n`;
  try {
    parseToml(next); // never leave the user with a config that does not parse
  } catch (error) {
    throw configError(
      `refusing to edit ${file}: the result would not be valid TOML (${(error as Error).message.split('\n')[0]})`,
      error,
    );
  }
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(file, next);
  return block;
}

/**
 * Adds `entry` to the top-level `plugins` list: the statement `plugins = [...]` is rewritten in place
 * (comments inside it are lost; every other line stays), or `plugins = ["bundled", entry]` is put
 * first in the file when it has none (top-level keys must precede every table).
 */
export function appendPluginEntry(file: string, entry: string, initial = ''): string {
  const current = existsSync(file) ? readFileSync(file, 'utf8') : initial;
  const parsed = parseToml(current) as { plugins?: unknown };
  const list = Array.isArray(parsed.plugins) ? [...(parsed.plugins as unknown[]), entry] : ['bundled', entry];
  const statement = `plugins = [${list.map((v) => JSON.stringify(v)).join(', ')}]`;
  const span = Array.isArray(parsed.plugins) ? pluginsStatement(current, parsed.plugins) : null;
  const next = span
    ? `${current.slice(0, span.start)}${statement}${current.slice(span.end)}`
    : `${statement}\n${current.startsWith('\n') ? '' : '\n'}${current}`;
  const check = parseToml(next) as { plugins?: unknown };
  if (JSON.stringify(check.plugins) !== JSON.stringify(list))
    throw configError(
      `refusing to edit ${file}: could not rewrite its top-level ` +
        `plugins list; add ${JSON.stringify(entry)} to it by hand`,
    );
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(file, next);
  return statement;
}

/** Where `plugins = [...]` is in the text: the first top-level match whose value parses to `value`. */
function pluginsStatement(text: string, value: unknown[]): { start: number; end: number } | null {
  const firstTable = text.search(/^\s*\[/m);
  const head = firstTable === -1 ? text : text.slice(0, firstTable);
  const match = /^[ \t]*(plugins|"plugins")[ \t]*=[ \t]*/m.exec(head);
  if (!match) return null;
  const valueStart = match.index + match[0].length;
  for (let end = text.indexOf(']', valueStart); end !== -1; end = text.indexOf(']', end + 1)) {
    try {
      const parsed = parseToml(`v = ${text.slice(valueStart, end + 1)}`) as { v: unknown };
      if (JSON.stringify(parsed.v) === JSON.stringify(value)) return { start: match.index, end: end + 1 };
    } catch {
      // not the closing bracket yet (one inside a string or a nested array)
    }
  }
  return null;
}
