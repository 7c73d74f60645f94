// First-party plugin: `kbctx eval`, retrieval quality measured by the user (nDCG@10, Recall@100, MRR@10,
// latency) on a BEIR folder indexed into a temporary index, or on qrels against the configured index.
// Named in the `commands` tap, so the CLI imports commands/ only when `kbctx eval` runs.
import { definePlugin } from '../../core/api/plugin.ts';
import { cliService } from '../cli/api.ts';

const plugin = definePlugin({
  name: 'eval',
  version: '0.2.0',
  kbctx: '^0.2',
  provides: ['command:eval'],
  optionsSchema: { type: 'object', additionalProperties: false, properties: {} },
  apply(kernel) {
    kernel.hooks.commands.tapPromise({ name: 'eval', commands: ['eval'] }, async (program) => {
      const { registerEval } = await import('./commands/eval.ts');
      registerEval(program as unknown as Parameters<typeof registerEval>[0], kernel.use(cliService));
    });
  },
});

export default plugin; // a named constant: see test/architecture.test.ts
