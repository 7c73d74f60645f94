// Resolves a `sync` target — `all`, a type, or `<type>:<name>` — to configured connector instances.
import { badRequest, notFound } from '../core/errors.ts';
import { CONNECTOR_TYPES, type Config, type ConnectorType } from '../config/types.ts';

export interface ConnectorRef {
  type: ConnectorType;
  name: string;
  label: string;
}

export function configuredConnectors(config: Config): ConnectorRef[] {
  return CONNECTOR_TYPES.flatMap((type) =>
    Object.keys(config.connectors[type]).sort().map((name) => ({ type, name, label: `${type}:${name}` })),
  );
}

export function selectConnectors(config: Config, target: string): ConnectorRef[] {
  const all = configuredConnectors(config);
  const listing = all.length > 0 ? `configured: ${all.map((c) => c.label).join(', ')}` : 'no connectors are configured';
  if (target === 'all') {
    if (all.length === 0) throw notFound(`nothing to sync: ${listing}; add a [connectors.<type>.<name>] section to the config`);
    return all;
  }
  if ((CONNECTOR_TYPES as readonly string[]).includes(target)) {
    const ofType = all.filter((c) => c.type === target);
    if (ofType.length === 0) throw notFound(`no ${target} connectors are configured (${listing})`);
    return ofType;
  }
  const colon = target.indexOf(':');
  if (colon > 0 && (CONNECTOR_TYPES as readonly string[]).includes(target.slice(0, colon))) {
    const found = all.find((c) => c.label === target);
    if (!found) throw notFound(`connector ${target} is not configured (${listing})`);
    return [found];
  }
  throw badRequest(`unknown connector '${target}': use all, a type (${CONNECTOR_TYPES.join(', ')}) or <type>:<name>`);
}
