// First-party plugin: the S3 connector (`[connectors.s3.<name>]`, the official AWS SDK, ADR 0031);
// the SDK is imported when an S3 connector is first created.
import { definePlugin, STAGE } from '../../core/index.ts';
import type * as ConnectorModule from '../../src/connectors/s3/s3-connector.ts';

// Resolved at run time: tsc does not rewrite this file's dynamic imports to .js in dist/, so the
// extension follows this file's own (.ts from the sources, .js when built).
const CONNECTOR_MODULE = new URL(`../../src/connectors/s3/s3-connector${import.meta.url.endsWith('.ts') ? '.ts' : '.js'}`, import.meta.url).href;
import type { S3ConnectorConfig } from '../../src/config/types.ts';

export default definePlugin({
  name: 'connector-s3',
  version: '0.2.0',
  kbctx: '^0.2',
  provides: ['connector:s3'],
  optionsSchema: { type: 'object', additionalProperties: false, properties: {} },
  apply(kernel) {
    kernel.hooks.createConnector.for('s3').tapPromise({ name: 'connector-s3', stage: STAGE.FALLBACK }, async (instance) => {
      const { S3Connector } = (await import(CONNECTOR_MODULE)) as typeof ConnectorModule;
      return new S3Connector(instance.name, instance.options as unknown as S3ConnectorConfig);
    });
  },
});
