// The MCP resources plugins add through the `resources` hook: fixed URIs and URI templates (RFC 6570
// level 1, `{name}` = one piece without '/'), collected once when an MCP transport starts. Reading
// runs the plugin's `read` with that plugin's own context.
import {
  KbctxError,
  PerPluginCollector,
  type Kernel,
  type PluginResourceContents,
  type PluginResourceDef,
} from '../../core/index.ts';

export type McpResourceContents = { uri: string; mimeType?: string } & ({ text: string } | { blob: string });

export interface PluginResources {
  resources: { uri: string; name: string; title?: string; description?: string; mimeType?: string }[];
  templates: { uriTemplate: string; name: string; title?: string; description?: string; mimeType?: string }[];
  /** The contents of `uri`, or undefined when no plugin resource has it. */
  read(uri: string, signal: AbortSignal): Promise<McpResourceContents | undefined>;
}

interface Entry {
  def: PluginResourceDef;
  plugin: string;
  match: (uri: string) => Record<string, string> | undefined;
}

export function collectPluginResources(kernel: Kernel): PluginResources {
  const entries: Entry[] = [];
  kernel.hooks.resources.call(
    new PerPluginCollector((plugin, def) => entries.push({ def, plugin, match: matcher(def, plugin) })),
  );
  const describe = ({ name, title, description, mimeType }: PluginResourceDef) => ({
    name,
    ...(title ? { title } : {}),
    ...(description ? { description } : {}),
    ...(mimeType ? { mimeType } : {}),
  });
  return {
    resources: entries.filter((e) => e.def.uri !== undefined).map((e) => ({ uri: e.def.uri!, ...describe(e.def) })),
    templates: entries
      .filter((e) => e.def.uriTemplate !== undefined)
      .map((e) => ({ uriTemplate: e.def.uriTemplate!, ...describe(e.def) })),
    async read(uri, signal) {
      for (const e of entries) {
        const values = e.match(uri);
        if (!values) continue;
        const contents: PluginResourceContents = await e.def.read(uri, values, kernel.pluginContext(e.plugin, signal));
        const mimeType = contents.mimeType ?? e.def.mimeType;
        return {
          uri,
          ...(mimeType ? { mimeType } : {}),
          ...(contents.blob !== undefined ? { blob: contents.blob } : { text: contents.text ?? '' }),
        };
      }
      return undefined;
    },
  };
}

function matcher(def: PluginResourceDef, plugin: string): Entry['match'] {
  const where = `plugin '${plugin}': resources.add(${JSON.stringify(def?.name)})`;
  if (typeof def?.read !== 'function' || typeof def.name !== 'string')
    throw new KbctxError('config_error', `${where}: needs a \`name\` and a \`read\` function`);
  if ((def.uri === undefined) === (def.uriTemplate === undefined))
    throw new KbctxError('config_error', `${where}: give exactly one of \`uri\` and \`uriTemplate\``);
  if (def.uri !== undefined) return (uri) => (uri === def.uri ? {} : undefined);
  const names: string[] = [];
  const pattern = def.uriTemplate!.split(/(\{[A-Za-z0-9_]+\})/).map((part) => {
    if (!/^\{[A-Za-z0-9_]+\}$/.test(part)) return part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
    names.push(part.slice(1, -1));
    return '([^/]+)';
  });
  const re = new RegExp(`^${pattern.join('')}$`);
  return (uri) => {
    const m = re.exec(uri);
    if (!m) return undefined;
    try {
      return Object.fromEntries(names.map((n, i) => [n, decodeURIComponent(m[i + 1]!)]));
    } catch {
      return undefined; // a bad percent-encoding names no resource of this template
    }
  };
}
