// The kernel's public API: what plugins (first-party and third-party) import. Nothing else in core/
// is a contract; `import { definePlugin } from 'kbctx'` re-exports this file. Three light entries hold
// part of it (ADR 0130): `api/plugin.ts` (the contract, services, errors, every type),
// `api/algorithms.ts` (the pure search and vector algorithms) and `api/use-cases.ts` (search, documents, sources,
// their wire shapes); plugins import those, so a command loads what it runs without this file.
export * from './api/plugin.ts';
export * from './api/algorithms.ts';
export { KERNEL_API_VERSION, type Kernel } from './kernel.ts';
export { packageRoot } from './config/package-root.ts';
export { VERSION } from './config/version.ts';
export { DEFAULT_CONFIG_PATH } from './config/load-config.ts';
export { bundledConnectorTypes } from './config/plugin-sections.ts';

// The checkers and deadlines plugin parts and connectors share (the extensions adapter, agents-inline); a tool's spec
// checks, parameter lists and input bounds are the tool-registry plugin's (its api.ts, ADR 0249).
export { ConnectorSpecInstance, invalid, type ConnectorSpec } from './app/plugin-connector-instance.ts';
export { runWithDeadline } from './app/run-with-deadline.ts';
// The connector contract's item check, and loose values from a script or plugin part.
export { toIsoTime, toScanEntries } from './connectors/plugin-items.ts';
export { asArray, asString } from './domain/loose-values.ts';

// The error table every surface answers with.
export { errorMapping } from './domain/errors.ts';
// Whether a caller may administer the server (ADR 0223): MCP's sync status, as REST's `requireAdmin`.
export { mayAdminister } from './domain/access-scope.ts';

export { lineLog } from './domain/log-line.ts';

// Sync and embedding runs over the configured connectors (the live index runs them for `kbctx serve`).
export { configuredConnectors, selectConnectors, type ConnectorRef } from './app/select-connectors.ts';
export { failedReport, syncConnectors, type SyncDeps } from './app/sync.ts';
export { embedPending } from './app/embed.ts';

// The use-cases: search, documents, sources, and their wire shapes.
export * from './api/use-cases.ts';
