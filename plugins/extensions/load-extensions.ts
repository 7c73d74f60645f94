// Loads the `[extensions] modules` in config order: resolves each (a path relative to the config root, the project
// folder above `config/` (ADR 0114), or a package name resolved from there), imports it, and calls its default export
// with a host that collects registrations, checked here. Each module that loads becomes a plugin (an adapter) the host
// applies like a `plugins` entry: it taps `tools`, `agents` and `createConnector.for(type)`. A module that fails
// (import, init, an invalid definition) registers nothing and is reported with its path and error; the others load
// regardless.
import { createRequire } from 'node:module';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import {
  bundledConnectorTypes,
  invalid,
  runWithDeadline,
  STAGE,
  type Plugin,
  type PluginAgentDef,
  type PluginConnector,
  type PluginToolDef,
} from '../../core/index.ts';
import { toolFromSpec } from '../tool-registry/api.ts';
import type {
  ExtensionAgent,
  ExtensionAgentContext,
  ExtensionConnector,
  ExtensionDeps,
  ExtensionTool,
  KbctxExtensionHost,
  ExtensionsConfig,
  LoadedExtensions,
} from './api.ts';
import { agentFromSpec, type AgentSpec } from '../agents-inline/api.ts';

/** The stage of a module's `tools` and `agents` taps: before any plugin's (STAGE.FIRST included). */
const YIELDING = STAGE.FIRST - 1;

interface Registered {
  tools: ExtensionTool[];
  agents: ExtensionAgent[];
  connectors: ExtensionConnector[];
}

export async function loadExtensions(config: ExtensionsConfig, deps: ExtensionDeps): Promise<LoadedExtensions> {
  const out: LoadedExtensions = { plugins: [], failures: [] };
  const names = new Set<string>();
  for (const spec of config.modules) {
    let where = spec;
    try {
      where = resolveModule(spec, config.baseDir);
      const registered = await loadModule(where, config.timeoutSecs, deps);
      const name = uniqueName(spec, where, names);
      out.plugins.push({ plugin: extensionPlugin(name, registered, config.timeoutSecs, deps), file: where });
    } catch (error) {
      out.failures.push({
        label: `extension:${spec}`,
        message: `${where}: ${error instanceof Error ? error.message : String(error)}`,
      });
    }
  }
  return out;
}

/** A path (absolute, `./`, `../`) against the config root, else a package name resolved from there. */
export function resolveModule(spec: string, baseDir: string): string {
  if (spec.startsWith('./') || spec.startsWith('../') || path.isAbsolute(spec)) return path.resolve(baseDir, spec);
  return createRequire(path.join(baseDir, 'package.json')).resolve(spec);
}

/** `extension:<file name or package name>` (lower case), numbered when two modules share it. */
function uniqueName(spec: string, file: string, taken: Set<string>): string {
  const given =
    spec.startsWith('./') || spec.startsWith('../') || path.isAbsolute(spec)
      ? path.basename(file, path.extname(file))
      : spec;
  const base = `extension:${
    given
      .toLowerCase()
      .replace(/[^a-z0-9._-]+/g, '-')
      .replace(/^-+/, '')
      .slice(0, 40) || 'module'
  }`;
  let name = base;
  for (let i = 2; taken.has(name); i++) name = `${base}-${i}`;
  taken.add(name);
  return name;
}

/** A loaded module as a plugin: its tools, agents and connector types through the kernel's hooks. */
function extensionPlugin(name: string, registered: Registered, timeoutSecs: number, deps: ExtensionDeps): Plugin {
  return {
    name,
    version: deps.version,
    kbctx: '^0.2',
    apply(kernel) {
      // Before every other tap: a tool or agent of the same name another plugin adds replaces the module's.
      if (registered.tools.length > 0)
        kernel.hooks.tools.tap({ name, stage: YIELDING }, (tools) =>
          registered.tools.forEach((t) => tools.add(toolDef(t, timeoutSecs))),
        );
      if (registered.agents.length > 0)
        kernel.hooks.agents.tap({ name, stage: YIELDING }, (agents) =>
          registered.agents.forEach((a) => agents.add(agentDef(a, deps.context, timeoutSecs))),
        );
      for (const c of registered.connectors) {
        kernel.hooks.createConnector
          .for(c.type)
          .tap(name, (instance) => connectorDef(c, instance.name, instance.options, timeoutSecs));
      }
    },
  };
}

// The adapters onto the one shape of each part: registerTool → `tools.add`, registerAgent →
// `agents.add`, registerConnector → a `createConnector` tap's `{scan(ctx)}` (core checks and runs them
// under their deadlines, as any plugin's). A part without its own `timeout` gets `[extensions] timeout`.
const toolDef = (t: ExtensionTool, timeoutSecs: number): PluginToolDef => ({
  name: t.name,
  description:
    typeof t.description === 'string' && t.description.trim() !== '' ? t.description : `Extension tool: ${t.name}`,
  inputSchema: t.parameters as PluginToolDef['inputSchema'],
  timeout: t.timeout ?? timeoutSecs,
  readOnly: t.readOnly,
  call: (params, ctx) => t.execute(params, { signal: ctx.signal, client: ctx.client }),
});

const agentDef = (a: ExtensionAgent, context: ExtensionAgentContext, timeoutSecs: number): PluginAgentDef => ({
  name: a.name,
  description:
    typeof a.description === 'string' && a.description.trim() !== '' ? a.description : `Extension agent: ${a.name}`,
  tools: a.tools,
  arguments: a.arguments,
  timeout: a.timeout ?? timeoutSecs,
  source: 'extension',
  resolve: (args, ctx) => a.resolve(args, { signal: ctx.signal, context }) as ReturnType<PluginAgentDef['resolve']>,
});

const connectorDef = (
  c: ExtensionConnector,
  name: string,
  options: Readonly<Record<string, unknown>>,
  timeoutSecs: number,
): PluginConnector => ({
  timeout: c.timeout ?? timeoutSecs,
  // A copy the extension may change, as plain JSON (TOML dates become strings), as Context Harness hands it.
  scan: (ctx) => c.scan(JSON.parse(JSON.stringify(options)) as Record<string, unknown>, { signal: ctx.signal, name }),
});

async function loadModule(file: string, timeoutSecs: number, deps: ExtensionDeps): Promise<Registered> {
  const mod = (await import(pathToFileURL(file).href)) as { default?: unknown };
  const init = mod.default;
  if (typeof init !== 'function') throw invalid('the default export must be a function (kbctx) => void');
  const registered: Registered = { tools: [], agents: [], connectors: [] };
  const host: KbctxExtensionHost = {
    version: deps.version,
    registerTool: (def) => {
      if (deps.reservedTools.has(def?.name))
        throw invalid(`registerTool(${JSON.stringify(def.name)}): \`${def.name}\` is a built-in tool`);
      toolFromSpec(def, timeoutSecs); // checks it: an invalid definition fails the module
      registered.tools.push(def);
    },
    registerAgent: (def) => {
      const resolve =
        typeof def?.resolve === 'function'
          ? (args: Record<string, unknown>, { signal }: { signal: AbortSignal }) =>
              def.resolve(args, { signal, context: deps.context })
          : def?.resolve;
      agentFromSpec({ ...def, resolve } as AgentSpec, timeoutSecs); // checks it
      registered.agents.push(def);
    },
    registerConnector: (def) => void registered.connectors.push(checkConnector(def)),
  };
  await runWithDeadline(`extension ${path.basename(file)}`, timeoutSecs, undefined, () =>
    (init as (host: KbctxExtensionHost) => unknown)(host),
  );
  return registered;
}

function checkConnector(def: ExtensionConnector): ExtensionConnector {
  const where = `registerConnector(${JSON.stringify(def?.type)})`;
  if (typeof def?.type !== 'string' || !/^[a-z][a-z0-9_-]{0,63}$/.test(def.type))
    throw invalid(`${where}: \`type\` must be lower-case letters, digits, '_' or '-'`);
  if (bundledConnectorTypes().includes(def.type))
    throw invalid(`${where}: \`${def.type}\` is a built-in connector type`);
  if (typeof def.scan !== 'function') throw invalid(`${where}: \`scan\` must be a function`);
  return def;
}
