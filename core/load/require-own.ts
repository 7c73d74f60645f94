// A module's own sibling, loaded synchronously (require of an ES module, Node 22.12+) for a synchronous
// hook whose implementation should not load with the plugin's index (ADR 0130: start-up). The caller
// names the `.ts` source; run from the built package (dist/, `.js` files) the `.js` beside it is loaded.
import module from 'node:module';

export function requireOwn<T>(importMetaUrl: string, specifier: string): T {
  const file = importMetaUrl.endsWith('.ts') ? specifier : specifier.replace(/\.ts$/, '.js');
  return module.createRequire(importMetaUrl)(file) as T;
}
