// Resolves a `sync` target — `all`, a type, or `<type>:<name>` — to configured connector instances.
import { badRequest, notFound } from '../domain/errors.ts';
import type { Config } from '../config/types.ts';

export interface ConnectorRef {
  /** A type a bundled plugin owns, or one a configured plugin or an extension provides. */
  type: string;
  name: string;
  label: string;
}

/** The bundled plugins' types first (in their order), then the others by name: as the config holds them. */
export function connectorTypes(config: Config): string[] {
  return Object.keys(config.connectors);
}

export function configuredConnectors(config: Config): ConnectorRef[] {
  return connectorTypes(config).flatMap((type) =>
    Object.keys(config.connectors[type] ?? {})
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
