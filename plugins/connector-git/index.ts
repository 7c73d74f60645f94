// First-party plugin: the git connector (`[connectors.git.<name>]`): a private clone beside the
// index, driven by the git CLI (ADR 0030); imported when a git connector is first created.
import { definePlugin, STAGE } from '../../core/index.ts';
import type * as ConnectorModule from '../../src/connectors/git/git-connector.ts';

// Resolved at run time: tsc does not rewrite this file's dynamic imports to .js in dist/, so the
// extension follows this file's own (.ts from the sources, .js when built).
const CONNECTOR_MODULE = new URL(`../../src/connectors/git/git-connector${import.meta.url.endsWith('.ts') ? '.ts' : '.js'}`, import.meta.url).href;
import type { GitConnectorConfig } from '../../src/config/types.ts';

export default definePlugin({
  name: 'connector-git',
  version: '0.2.0',
  kbctx: '^0.2',
  provides: ['connector:git'],
  optionsSchema: { type: 'object', additionalProperties: false, properties: {} },
  apply(kernel) {
    kernel.hooks.createConnector.for('git').tapPromise({ name: 'connector-git', stage: STAGE.FALLBACK }, async (instance) => {
      const { GitConnector } = (await import(CONNECTOR_MODULE)) as typeof ConnectorModule;
      return new GitConnector(instance.name, instance.options as unknown as GitConnectorConfig, { dataDir: instance.dataDir, baseDir: instance.baseDir });
    });
  },
});
