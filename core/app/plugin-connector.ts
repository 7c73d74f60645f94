// A connector a plugin returns in the simple form ({scan(ctx)} yielding items) as the app's Connector:
// drained under a deadline and checked like a compiled extension's (imported when first needed).
import type { ConnectorInstance, PluginConnector } from '../connectors/connector.ts';
import type { Connector } from '../connectors/connector.ts';
import { ConnectorSpecInstance, invalid } from './plugin-connector-instance.ts';
import type { PluginContext } from '../plugin-context.ts';

type ContextFor = (signal: AbortSignal) => PluginContext;

export function connectorFromPlugin(
  def: PluginConnector,
  instance: ConnectorInstance,
  contextFor: ContextFor,
  defaultTimeoutSecs: number,
  warn: (message: string) => void,
): Connector {
  if (typeof def?.scan !== 'function')
    throw invalid(`connector ${instance.type}:${instance.name}: the createConnector tap must return {scan}`);
  return new ConnectorSpecInstance(
    { type: instance.type, timeout: def.timeout, scan: ({ signal }) => def.scan(contextFor(signal)) },
    instance.name,
    defaultTimeoutSecs,
    warn,
  );
}
