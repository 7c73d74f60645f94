// A configured plugin's connector types checked when it is applied (ADR 0164): each
// `[connectors.<type>.<name>]` table against the plugin's `connectorConfigs[type].schema`, defaults
// applied, an error naming the key path as the config loader's do. The bundled set's types are
// checked when the config loads (core/config/plugin-sections.ts).
import { connectorSection, type OwnedSection } from './plugin-sections.ts';
import { SchemaIssue } from './json-check.ts';
import { configLabel } from './configured-sections.ts';
import { configError } from '../domain/errors.ts';
import type { Plugin } from '../plugin.ts';

type Table = Readonly<Record<string, unknown>>;
export type ConnectorTables = Readonly<Record<string, Readonly<Record<string, Table>>>>;

/** Per kernel: type → name → the checked table (what the connector receives). */
const checked = new WeakMap<object, Map<string, Record<string, Table>>>();
/** Per kernel: the connector types its configured plugins own (for `kbctx config schema`). */
const sections = new WeakMap<object, Map<string, OwnedSection>>();

export function checkConnectorOptions(
  kernel: object,
  plugin: Plugin,
  tables: ConnectorTables | undefined,
  configFile: string | null | undefined,
  baseDir: string,
): void {
  for (const [type, section] of Object.entries(plugin.connectorConfigs ?? {})) {
    const owned = sections.get(kernel) ?? new Map<string, OwnedSection>();
    if (!owned.has(type)) owned.set(type, connectorSection(plugin.name, section));
    sections.set(kernel, owned);
    const instances = tables?.[type];
    if (!instances) continue;
    const { check } = connectorSection(plugin.name, section);
    const out: Record<string, Table> = {};
    for (const [name, table] of Object.entries(instances)) {
      try {
        out[name] = Object.freeze(check(table, ['connectors', type, name]));
      } catch (error) {
        if (!(error instanceof SchemaIssue)) throw error;
        const label = configLabel({ configFile, baseDir });
        throw configError(`${label}: ${error.path.join('.')} ${error.message} (checked by plugin '${plugin.name}')`);
      }
    }
    const byType = checked.get(kernel) ?? new Map<string, Record<string, Table>>();
    if (!byType.has(type)) byType.set(type, out);
    checked.set(kernel, byType);
  }
}

/** The checked table of a configured connector of a plugin's type; undefined when no schema checked it. */
export const checkedConnectorOptions = (kernel: object, type: string, name: string): Table | undefined =>
  checked.get(kernel)?.get(type)?.[name];

/** The connector types of the plugins applied through the config (not the bundled set's), in apply order. */
export const configuredConnectorSections = (kernel: object): ReadonlyMap<string, OwnedSection> =>
  sections.get(kernel) ?? new Map();
