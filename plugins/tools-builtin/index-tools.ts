// search / get / sources for plugins' `ctx` (the `kbctx.index-tools` service): the built-in tools'
// answers (the REST bodies), run from `builtinTools` directly (parameters checked as ToolRegistry.call
// checks them, no toolCall/toolResult taps), so the two never drift apart. Dropping tools-builtin
// drops these too: a plugin's `ctx.search` is then a config error naming the plugin.
import type { BuiltinDeps, IndexServices } from '../../core/api/plugin.ts';
import { validateParams } from '../tool-registry/api.ts';
import { builtinBodies, builtinTools, type BuiltinBodies } from './builtin-tools.ts';

/**
 * `deps()` is read on first call: the index opens after the bundled plugins are applied. Typed with the wire shapes (no
 * cast).
 */
export function indexToolsOf(deps: () => BuiltinDeps): IndexServices {
  let built: { tools: Map<string, ReturnType<typeof builtinTools>[number]>; bodies: BuiltinBodies } | undefined;
  /** The bodies, and `input` checked against the tool's parameters (a throw here rejects the async caller). */
  const prepare = (name: keyof BuiltinBodies, input: unknown): [BuiltinBodies, Record<string, unknown>] => {
    built ??= { tools: new Map(builtinTools(deps()).map((t) => [t.name, t])), bodies: builtinBodies(deps()) };
    return [built.bodies, validateParams(built.tools.get(name)!.params, input)];
  };
  return {
    search: async (input) => {
      const [bodies, params] = prepare('search', input);
      return bodies.search(params);
    },
    get: async (id) => {
      const [bodies, params] = prepare('get', { id });
      return bodies.get(params);
    },
    sources: async () => {
      const [bodies, params] = prepare('sources', {});
      return bodies.sources(params);
    },
  };
}
