// search / get / sources for plugins' `ctx`: the built-in tools' answers (the REST bodies), run from
// core's `builtinTools` directly (parameters checked as ToolRegistry.call checks them), so they work
// even when the tools-builtin plugin is dropped, and the two never drift apart.
import type { IndexServices } from '../plugin-context.ts';
import type { RetrievalConfig } from '../config/types.ts';
import type { Store } from '../store/store.ts';
import { validateParams } from '../tools/param-spec.ts';
import type { SearchDeps } from './search.ts';
import { builtinTools } from './tools.ts';

export function indexServicesOf(deps: SearchDeps, store: Store, retrieval: RetrievalConfig, connectorLabels: () => string[]): IndexServices {
  const tools = new Map(builtinTools({ store, retrieval, searchDeps: () => deps, connectorLabels }).map((t) => [t.name, t]));
  const call = (name: string, input: unknown): Promise<unknown> => {
    const tool = tools.get(name)!;
    return Promise.resolve().then(() => tool.run(validateParams(tool.params, input), {}));
  };
  return { search: (input) => call('search', input), get: (id) => call('get', { id }), sources: () => call('sources', {}) };
}
