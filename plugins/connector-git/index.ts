// First-party plugin: the git connector (`[connectors.git.<name>]`): a private clone beside the
// index, driven by the git CLI (ADR 0030); imported when a git connector is first created.
import { definePlugin, STAGE } from '../../core/api/plugin.ts';
import { fileExtraction } from '../extract-text/api.ts';
import { gitSection } from './config-section.ts';
import type { GitConnectorConfig } from './config-section.ts';

const plugin = definePlugin({
  name: 'connector-git',
  version: '0.2.0',
  kbctx: '^0.2',
  dependencies: ['extract-text'],
  provides: ['connector:git'],
  optionsSchema: { type: 'object', additionalProperties: false, properties: {} },
  connectorConfigs: { git: gitSection },
  apply(kernel) {
    kernel.hooks.createConnector
      .for('git')
      .tapPromise({ name: 'connector-git', stage: STAGE.FALLBACK }, async (instance) => {
        const { GitConnector } = await import('./git-connector.ts');
        return new GitConnector(instance.name, instance.options as unknown as GitConnectorConfig, {
          dataDir: instance.dataDir,
          baseDir: instance.baseDir,
          extraction: kernel.use(fileExtraction),
        });
      });
  },
});

// Not `export default definePlugin(…)`: tsc leaves the dynamic imports inside an `export default`
// expression unrewritten (.ts in dist/); test/architecture.test.ts checks this.
export default plugin;
