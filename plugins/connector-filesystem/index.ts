// First-party plugin: the filesystem connector (`[connectors.filesystem.<name>]`), imported when a
// filesystem connector is first created.
import { definePlugin, STAGE } from '../../core/index.ts';
import type * as ConnectorModule from '../../src/connectors/filesystem/filesystem-connector.ts';

// Resolved at run time: tsc does not rewrite this file's dynamic imports to .js in dist/, so the
// extension follows this file's own (.ts from the sources, .js when built).
const CONNECTOR_MODULE = new URL(`../../src/connectors/filesystem/filesystem-connector${import.meta.url.endsWith('.ts') ? '.ts' : '.js'}`, import.meta.url).href;
import type { FilesystemConnectorConfig } from '../../src/config/types.ts';

export default definePlugin({
  name: 'connector-filesystem',
  version: '0.2.0',
  kbctx: '^0.2',
  provides: ['connector:filesystem'],
  optionsSchema: { type: 'object', additionalProperties: false, properties: {} },
  apply(kernel) {
    kernel.hooks.createConnector.for('filesystem').tapPromise({ name: 'connector-filesystem', stage: STAGE.FALLBACK }, async (instance) => {
      const { FilesystemConnector } = (await import(CONNECTOR_MODULE)) as typeof ConnectorModule;
      return new FilesystemConnector(instance.name, instance.options as unknown as FilesystemConnectorConfig);
    });
  },
});
