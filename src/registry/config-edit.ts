// Structural edits of the user's TOML config: check for a table by parsing, then append a new table
// as text, so the user's comments and layout stay as they are. Never rewrites existing content.
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { parse as parseToml, stringify } from 'smol-toml';
import { configError } from '../core/errors.ts';

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
export function appendTable(file: string, keys: readonly string[], values: Record<string, unknown>, comments: readonly string[] = [], initial = ''): string {
  const body = stringify(values).trimEnd();
  const block = [...comments.map((c) => `# ${c}`), tableHeader(keys), body].filter((l) => l !== '').join('\n');
  let current = existsSync(file) ? readFileSync(file, 'utf8') : initial;
  if (current !== '' && !current.endsWith('\n')) current += '\n';
  const next = `${current}${current.trim() === '' ? '' : '\n'}${block}\n`;
  try {
    parseToml(next); // never leave the user with a config that does not parse
  } catch (error) {
    throw configError(`refusing to edit ${file}: the result would not be valid TOML (${(error as Error).message.split('\n')[0]})`, error);
  }
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(file, next);
  return block;
}
