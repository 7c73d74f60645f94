// Script tools: a Lua file defining a global `tool`, registered under its config key. Metadata is
// read once, in the sandbox; each call runs `tool.execute(params, context)` in a fresh state.
import { toScriptConfig } from './script-values.ts';
import { parseToolMeta, type ToolMeta } from './tool-meta.ts';
import type { ContextHandler, ScriptRuntime } from './runtime/script-runtime.ts';
import { metaTimeoutSecs, type ScriptConfig } from '../api.ts';
import type { Tool, ToolCallContext } from '../../tool-registry/api.ts';

export interface ScriptTool extends Tool {
  readonly meta: ToolMeta;
  readonly path: string;
}

export async function loadScriptTool(
  runtime: ScriptRuntime,
  name: string,
  config: ScriptConfig,
  context: ContextHandler,
): Promise<ScriptTool> {
  const base = { label: `tool:${name}`, scriptPath: config.path, config: toScriptConfig(config.extra) };
  const meta = parseToolMeta(
    await runtime.run({ ...base, kind: 'tool.meta', input: {} }, { timeoutSecs: metaTimeoutSecs(config), context }),
    name,
  );
  return {
    name,
    description: meta.description,
    params: meta.params,
    builtin: false,
    readOnly: false,
    meta,
    path: config.path,
    async run(params: Record<string, unknown>, ctx: ToolCallContext): Promise<unknown> {
      const out = (await runtime.run(
        { ...base, kind: 'tool.execute', input: params },
        { timeoutSecs: config.timeoutSecs, context, signal: ctx.signal },
      )) as {
        result?: unknown;
      };
      return out.result ?? null;
    },
  };
}
