// Wraps a connector so it fails when it runs, not when it is loaded: used for parts whose config needs
// something missing (an unset `${VAR}`), so every other part keeps working. The Lua bridge guards its script tools
// and agents the same way (plugins/lua-bridge/part-guards.ts).
import type { Connector } from '../connectors/connector.ts';

/**
 * `check` (absent: nothing is missing, the part is returned as it is) throws the part's error (a KbctxError naming what
 * is missing) or returns when all is well.
 */
export type PartCheck = () => void;

export function guardConnector(connector: Connector, check: PartCheck | undefined): Connector {
  if (!check) return connector;
  const { probe, watchTarget } = connector;
  return {
    label: connector.label,
    type: connector.type,
    scan: (options) =>
      Promise.resolve()
        .then(check)
        .then(() => connector.scan(options)),
    ...(probe
      ? {
          probe: () =>
            Promise.resolve()
              .then(check)
              .then(() => probe.call(connector)),
        }
      : {}),
    ...(watchTarget ? { watchTarget: () => watchTarget.call(connector) } : {}),
  };
}
