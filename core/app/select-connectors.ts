// Resolves a `sync` target — `all`, a type, or `<type>:<name>` — to configured connector instances.
import { badRequest, notFound } from '../domain/errors.ts';
import { CONNECTOR_TYPES, type Config } from '../config/types.ts';

export interface ConnectorRef {
  /** A built-in type (CONNECTOR_TYPES) or one registered by an extension. */
  type: string;
  name: string;
  label: string;
}

/** Built-in types first (in CONNECTOR_TYPES order), then extension types by name. */
export function connectorTypes(config: Config): string[] {
  return [...CONNECTOR_TYPES, ...Object.keys(config.connectors.extension).sort()];
}

export function configuredConnectors(config: Config): ConnectorRef[] {
  const instances = (type: string): object =>
    config.connectors.extension[type] ?? config.connectors[type as (typeof CONNECTOR_TYPES)[number]];
  return connectorTypes(config).flatMap((type) =>
    Object.keys(instances(type))
      .sort()
      .map((name) => ({ type, name, label: `${type}:${name}` })),
  );
}

export function selectConnectors(config: Config, target: string): ConnectorRef[] {
  const all = configuredConnectors(config);
  const listing = all.length > 0 ? `configured: ${all.map((c) => c.label).join(', ')}` : 'no connectors are configured';
  if (target === 'all') {
    if (all.length === 0)
      throw notFound(`nothing to sync: ${listing}; add a [connectors.<type>.<name>] section to the config`);
    return all;
  }
  const types = connectorTypes(config);
  if (types.includes(target)) {
    const ofType = all.filter((c) => c.type === target);
    if (ofType.length === 0) throw notFound(`no ${target} connectors are configured (${listing})`);
    return ofType;
  }
  const colon = target.indexOf(':');
  if (colon > 0 && types.includes(target.slice(0, colon))) {
    const found = all.find((c) => c.label === target);
    if (!found) throw notFound(`connector ${target} is not configured (${listing})`);
    return [found];
  }
  throw badRequest(`unknown connector '${target}': use all, a type (${types.join(', ')}) or <type>:<name>`);
}
