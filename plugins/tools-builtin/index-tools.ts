// search / get / sources for plugins' `ctx` (the `kbctx.index-tools` service): the built-in tools'
// answers (the REST bodies), run from `builtinTools` directly (parameters checked as ToolRegistry.call
// checks them, no toolCall/toolResult taps), so the two never drift apart. Dropping tools-builtin
// drops these too: a plugin's `ctx.search` is then a config error naming the plugin.
import type { BuiltinDeps, IndexServices } from '../../core/api/plugin.ts';
import { validateParams } from '../../core/api/use-cases.ts';
import { builtinTools } from './builtin-tools.ts';

/** `deps()` is read on first call: the index opens after the bundled plugins are applied. */
export function indexToolsOf(deps: () => BuiltinDeps): IndexServices {
  let tools: Map<string, ReturnType<typeof builtinTools>[number]> | undefined;
  const call = (name: string, input: unknown): Promise<unknown> =>
    Promise.resolve().then(() => {
      tools ??= new Map(builtinTools(deps()).map((t) => [t.name, t]));
      const tool = tools.get(name)!;
      return tool.run(validateParams(tool.params, input), {});
    });
  return { search: (input) => call('search', input), get: (id) => call('get', { id }), sources: () => call('sources', {}) };
}
