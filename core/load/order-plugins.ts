// Plugins in the order they are applied: config order, moved after their dependencies (a stable
// topological sort). A duplicate name, a missing dependency or a cycle is a config error.
import { configError } from '../domain/errors.ts';
import type { Plugin } from '../plugin.ts';

export interface Candidate {
  plugin: Plugin;
  from: string;
}

export function orderPlugins<C extends Candidate>(candidates: readonly C[], alreadyLoaded: ReadonlySet<string>): C[] {
  const byName = new Map<string, C>();
  for (const c of candidates) {
    const existing = byName.get(c.plugin.name);
    if (existing || alreadyLoaded.has(c.plugin.name)) {
      throw configError(
        `plugin '${c.plugin.name}' is loaded twice ` +
          `(${existing ? existing.from : 'bundled'} and ${c.from}); remove one from plugins`,
      );
    }
    byName.set(c.plugin.name, c);
  }
  const ordered: C[] = [];
  const state = new Map<string, 'visiting' | 'done'>();
  const visit = (c: C, path: string[]): void => {
    const name = c.plugin.name;
    if (state.get(name) === 'done') return;
    if (state.get(name) === 'visiting')
      throw configError(`plugin dependency cycle: ${[...path.slice(path.indexOf(name)), name].join(' → ')}`);
    state.set(name, 'visiting');
    for (const dep of c.plugin.dependencies ?? []) {
      const target = byName.get(dep);
      if (target) visit(target, [...path, name]);
      else if (!alreadyLoaded.has(dep))
        throw configError(`plugin '${name}' needs '${dep}', which is not loaded (add it to plugins)`);
    }
    state.set(name, 'done');
    ordered.push(c);
  };
  for (const c of candidates) visit(c, []);
  return ordered;
}
