// Whether a caller's `tools` scope (`[server.tokens.<name>] tools`, ADR 0223) lets it list and call a tool or an
// agent: exact names or globs (`*` any run of characters, `?` one). Pure; the registries ask it for the surfaces.
import type { AccessScope } from '../../core/api/plugin.ts';

const compiled = new WeakMap<readonly string[], RegExp>();

/** True without a scope or without a `tools` list; else when a name or glob of the list matches. */
export function toolAllowed(scope: AccessScope | undefined, name: string): boolean {
  const tools = scope?.tools;
  if (tools === undefined) return true;
  let pattern = compiled.get(tools);
  if (!pattern) {
    pattern = new RegExp(`^(?:${tools.map(globSource).join('|') || '(?!)'})$`, 'u');
    compiled.set(tools, pattern);
  }
  return pattern.test(name);
}

const globSource = (glob: string): string =>
  [...glob].map((c) => (c === '*' ? '.*' : c === '?' ? '.' : c.replace(/[\\^$.|+()[\]{}/-]/gu, '\\$&'))).join('');
