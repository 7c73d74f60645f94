// Tools that plugins add through the kernel's `tools` hook, as the registry's Tool: checked and run under a deadline
// like compiled extensions, with the plugin's own ctx (agents are the agents-inline plugin's: its agents/, ADR 0238).
import type { PluginContext, PluginToolDef } from '../../core/api/plugin.ts';
import { invalid } from '../../core/index.ts';
import { checkName, toolFromSpec } from './tool-from-spec.ts';
import { NO_TOOL_CLIENT } from './api.ts';
import type { Tool } from './registry-types.ts';

type ContextFor = (signal: AbortSignal) => PluginContext;

/** `plugin`: the name of the plugin that added the tool (its origin, unless the def names a `source`). */
export function toolFromPlugin(
  def: PluginToolDef,
  contextFor: ContextFor,
  defaultTimeoutSecs: number,
  plugin: string,
): Tool {
  const origin = def.source ?? plugin;
  if (typeof def?.call !== 'function')
    throw invalid(`tools.add(${JSON.stringify(def?.name)}): \`call\` must be a function`);
  if (def.params && def.timeout === undefined) {
    checkName(def.name, `tools.add(${JSON.stringify(def.name)})`);
    return {
      name: def.name,
      description: def.description ?? `Plugin tool: ${def.name}`,
      params: def.params,
      builtin: def.builtin === true,
      origin,
      readOnly: def.readOnly === true,
      content: def.content === true,
      run: async (params, ctx) =>
        (await def.call(params, {
          ...contextFor(ctx.signal ?? new AbortController().signal),
          client: ctx.client ?? NO_TOOL_CLIENT,
        })) ?? null,
    };
  }
  const tool = toolFromSpec(
    {
      name: def.name,
      description: def.description,
      parameters: (def.params ?? def.inputSchema) as never,
      timeout: def.timeout,
      readOnly: def.readOnly,
      execute: (params, { signal, client }) => def.call(params, { ...contextFor(signal), client }),
    },
    defaultTimeoutSecs,
  );
  return {
    ...tool,
    description: def.description ?? `Plugin tool: ${def.name}`,
    builtin: def.builtin === true,
    origin,
    content: def.content === true,
  };
}
