// First-party plugin: the S3 connector (`[connectors.s3.<name>]`, the official AWS SDK, ADR 0031);
// the SDK is imported when an S3 connector is first created.
import { definePlugin, STAGE } from '../../core/api/plugin.ts';
import { fileExtraction } from '../extract-text/api.ts';
import { s3Section } from './config-section.ts';
import type { S3ConnectorConfig } from './config-section.ts';

const plugin = definePlugin({
  name: 'connector-s3',
  version: '0.2.0',
  kbctx: '^0.2',
  dependencies: ['extract-text'],
  provides: ['connector:s3'],
  optionsSchema: { type: 'object', additionalProperties: false, properties: {} },
  connectorConfigs: { s3: s3Section },
  apply(kernel) {
    kernel.hooks.createConnector
      .for('s3')
      .tapPromise({ name: 'connector-s3', stage: STAGE.FALLBACK }, async (instance) => {
        const { S3Connector } = await import('./s3-connector.ts');
        return new S3Connector(instance.name, instance.options as unknown as S3ConnectorConfig, {
          extraction: kernel.use(fileExtraction),
        });
      });
  },
});

// Not `export default definePlugin(…)`: tsc leaves the dynamic imports inside an `export default`
// expression unrewritten (.ts in dist/); test/architecture.test.ts checks this.
export default plugin;
