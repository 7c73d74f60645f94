// Loads the `[extensions] modules` in config order: resolves each (a path relative to the config
// file, or a package name resolved from there), imports it, and calls its default export with a host
// that collects registrations. A module that fails (import, init, an invalid definition) registers
// nothing and is reported with its path and error; the others load regardless.
import { createRequire } from 'node:module';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Agent } from '../../core/app/agents.ts';
import type { Tool } from '../../core/app/tools.ts';
import type { ExtensionsConfig } from '../../core/config/types.ts';
import { CONNECTOR_TYPES } from '../../core/config/types.ts';
import type { ExtensionAgentContext, ExtensionConnector, KbctxExtensionHost } from './extension-api.ts';
import { toExtensionAgent } from './extension-agent.ts';
import { invalid, toExtensionTool } from './extension-tool.ts';
import { runWithDeadline } from './run-with-deadline.ts';

export interface ExtensionLoadFailure {
  /** `extension:<module as written>`. */
  label: string;
  /** The resolved path (when resolution got that far) and the error. */
  message: string;
}

export interface LoadedExtensions {
  tools: Tool[];
  agents: Agent[];
  connectors: Map<string, ExtensionConnector>;
  failures: ExtensionLoadFailure[];
}

export interface ExtensionDeps {
  version: string;
  /** What agents' `resolve` receives as `context`. */
  context: ExtensionAgentContext;
  /** Names an extension tool may not take (the built-in tools). */
  reservedTools: ReadonlySet<string>;
}

export async function loadExtensions(config: ExtensionsConfig, deps: ExtensionDeps): Promise<LoadedExtensions> {
  const out: LoadedExtensions = { tools: [], agents: [], connectors: new Map(), failures: [] };
  for (const spec of config.modules) {
    let where = spec;
    try {
      where = resolveModule(spec, config.baseDir);
      const registered = await loadModule(where, config.timeoutSecs, deps);
      out.tools.push(...registered.tools);
      out.agents.push(...registered.agents);
      for (const c of registered.connectors) out.connectors.set(c.type, c);
    } catch (error) {
      out.failures.push({ label: `extension:${spec}`, message: `${where}: ${error instanceof Error ? error.message : String(error)}` });
    }
  }
  return out;
}

/** A path (absolute, `./`, `../`) against the config file's folder, else a package name resolved from there. */
export function resolveModule(spec: string, baseDir: string): string {
  if (spec.startsWith('./') || spec.startsWith('../') || path.isAbsolute(spec)) return path.resolve(baseDir, spec);
  return createRequire(path.join(baseDir, 'package.json')).resolve(spec);
}

async function loadModule(file: string, timeoutSecs: number, deps: ExtensionDeps): Promise<{ tools: Tool[]; agents: Agent[]; connectors: ExtensionConnector[] }> {
  const mod = (await import(pathToFileURL(file).href)) as { default?: unknown };
  const init = mod.default;
  if (typeof init !== 'function') throw invalid('the default export must be a function (kbctx) => void');
  const registered = { tools: [] as Tool[], agents: [] as Agent[], connectors: [] as ExtensionConnector[] };
  const host: KbctxExtensionHost = {
    version: deps.version,
    registerTool: (def) => {
      if (deps.reservedTools.has(def?.name)) throw invalid(`registerTool(${JSON.stringify(def.name)}): \`${def.name}\` is a built-in tool`);
      registered.tools.push(toExtensionTool(def, timeoutSecs));
    },
    registerAgent: (def) => void registered.agents.push(toExtensionAgent(def, timeoutSecs, deps.context)),
    registerConnector: (def) => void registered.connectors.push(checkConnector(def)),
  };
  await runWithDeadline(`extension ${path.basename(file)}`, timeoutSecs, undefined, () => (init as (host: KbctxExtensionHost) => unknown)(host));
  return registered;
}

function checkConnector(def: ExtensionConnector): ExtensionConnector {
  const where = `registerConnector(${JSON.stringify(def?.type)})`;
  if (typeof def?.type !== 'string' || !/^[a-z][a-z0-9_-]{0,63}$/.test(def.type)) throw invalid(`${where}: \`type\` must be lower-case letters, digits, '_' or '-'`);
  if ((CONNECTOR_TYPES as readonly string[]).includes(def.type)) throw invalid(`${where}: \`${def.type}\` is a built-in connector type`);
  if (typeof def.scan !== 'function') throw invalid(`${where}: \`scan\` must be a function`);
  return def;
}
