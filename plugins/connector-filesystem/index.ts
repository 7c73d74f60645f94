// First-party plugin: the filesystem connector (`[connectors.filesystem.<name>]`), imported when a
// filesystem connector is first created.
import { definePlugin, STAGE } from '../../core/api/plugin.ts';
import { fileExtraction } from '../extract-text/api.ts';
import { filesystemSection } from './config-section.ts';
import type { FilesystemConnectorConfig } from './config-section.ts';

const plugin = definePlugin({
  name: 'connector-filesystem',
  version: '0.2.0',
  kbctx: '^0.2',
  dependencies: ['extract-text'],
  provides: ['connector:filesystem'],
  optionsSchema: { type: 'object', additionalProperties: false, properties: {} },
  connectorConfigs: { filesystem: filesystemSection },
  apply(kernel) {
    kernel.hooks.createConnector
      .for('filesystem')
      .tapPromise({ name: 'connector-filesystem', stage: STAGE.FALLBACK }, async (instance) => {
        const { FilesystemConnector } = await import('./filesystem-connector.ts');
        return new FilesystemConnector(
          instance.name,
          instance.options as unknown as FilesystemConnectorConfig,
          kernel.use(fileExtraction),
        );
      });
  },
});

// Not `export default definePlugin(…)`: tsc leaves the dynamic imports inside an `export default`
// expression unrewritten (.ts in dist/); test/architecture.test.ts checks this.
export default plugin;
