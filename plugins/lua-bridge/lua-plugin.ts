// `.lua` plugins: a file defining a global `plugin` table (name, version, kbctx, options schema,
// timeout) and handlers for the data-only hooks. Its metadata is read once in the sandbox; each hook
// call runs its handler in a fresh sandboxed state with JSON values only (plugin-values.ts).
import path from 'node:path';
import {
  type DocumentDraft,
  type Hit,
  type Plugin,
  type PluginFileSpec,
  type SearchRequest,
  type ToolCall,
  configError,
  didYouMean,
} from '../../core/api/plugin.ts';
import type { Scripting } from './scripting/scripting.ts';
import { toHits, toJson, toRecord, withChanges } from './plugin-values.ts';

const DEFAULT_TIMEOUT_SECS = 10;
/** The data-only hooks a Lua plugin may handle (a function of this name in its `plugin` table). */
const LUA_HOOKS = ['document', 'query', 'rank', 'toolResult'] as const;

interface LuaPluginMeta {
  name?: unknown;
  version?: unknown;
  kbctx?: unknown;
  options?: unknown;
  timeout?: unknown;
  /** The data-only hooks the table has handlers for (an empty Lua table arrives as `{}`). */
  hooks: (typeof LUA_HOOKS)[number][] | Record<string, never>;
  /** The names of every function in the table. */
  handlers?: string[] | Record<string, never>;
}

/**
 * Reads the file's `plugin` table; a Lua error (syntax, no table, a handler that is no function) or a
 * function that is no hook's handler (a misspelt `plugin.documnet`) is a config error naming the file.
 */
export async function loadLuaPlugin(scripting: Scripting, spec: PluginFileSpec): Promise<Plugin> {
  const base = { scriptPath: spec.file, config: {} };
  let meta: LuaPluginMeta;
  try {
    meta = (await scripting.runtime.run(
      { ...base, label: `lua:${path.basename(spec.file)}`, kind: 'plugin.meta', input: {} },
      { timeoutSecs: DEFAULT_TIMEOUT_SECS },
    )) as LuaPluginMeta;
  } catch (error) {
    throw configError(`plugin ${spec.as}: ${(error as Error).message}`, error);
  }
  const handled = Array.isArray(meta.hooks) ? meta.hooks : [];
  for (const handler of Array.isArray(meta.handlers) ? meta.handlers : []) {
    if (!(LUA_HOOKS as readonly string[]).includes(handler)) {
      throw configError(
        `plugin ${spec.as}: unknown hook '${handler}'${didYouMean(handler, LUA_HOOKS)} ` +
          `(a Lua plugin handles ${LUA_HOOKS.join(', ')})`,
      );
    }
  }
  const name = String(meta.name ?? '');
  const timeoutSecs = typeof meta.timeout === 'number' && meta.timeout > 0 ? meta.timeout : DEFAULT_TIMEOUT_SECS;
  const call = async (hook: string, args: unknown[], signal: AbortSignal): Promise<unknown> => {
    const input = { hook, args: toJson(args), n: args.length };
    return (
      (await scripting.runtime.run(
        { ...base, label: `lua:${name}`, kind: 'plugin.call', input },
        { timeoutSecs, signal },
      )) as { value?: unknown }
    ).value;
  };
  return {
    name: meta.name as string,
    version: meta.version as string,
    kbctx: meta.kbctx as string,
    ...(meta.options === undefined ? {} : { optionsSchema: meta.options as Record<string, unknown> }),
    apply(kernel, options) {
      const { hooks } = kernel;
      const where = (hook: string): string => `plugin.${hook}`;
      for (const hook of handled) {
        if (hook === 'document') {
          hooks.document.tapPromise(
            name,
            async (draft, ctx) =>
              withChanges(
                draft,
                toRecord(await call(hook, [draft, options], ctx.signal), where(hook)),
              ) as DocumentDraft,
          );
        } else if (hook === 'query') {
          hooks.query.tapPromise(
            name,
            async (request, ctx) =>
              withChanges(
                request,
                toRecord(await call(hook, [request, options], ctx.signal), where(hook)),
              ) as SearchRequest,
          );
        } else if (hook === 'rank') {
          hooks.rank.tapPromise(name, async (hits: Hit[], request, ctx) =>
            toHits(hits, await call(hook, [hits, request, options], ctx.signal), where(hook)),
          );
        } else {
          hooks.toolResult.tapPromise(
            name,
            async (result, toolCall: ToolCall, ctx) =>
              (await call(hook, [result, toolCall, options], ctx.signal)) ?? result,
          );
        }
      }
    },
  };
}
