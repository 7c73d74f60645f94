// The engine's use-cases the host's commands run (`kbctx sync`, `embed`, `doctor`, `connector`, `serve`,
// `config schema`), a light entry of the public API (ADR 0170): sync and embed orchestration, connector
// selection, the config's JSON Schema. Imported by those commands' modules only, so
// `kbctx search` loads none of it.
export { syncConnectors, type SyncOptions, type SyncProgress, type SyncReport } from '../app/sync.ts';
export { embedPending, type EmbedOptions, type EmbedProgress, type EmbedReport } from '../app/embed.ts';
export { providerChoices } from '../embed/embedding-providers.ts';
export { configuredConnectors, selectConnectors, type ConnectorRef } from '../app/select-connectors.ts';
export { PerPluginCollector } from '../collector.ts';
export { configJsonSchema, loadedConfigJsonSchema } from '../config/json-schema.ts';
