// First-party plugin: the code chunker. Taps `chunk` (stage LATE: after a user's chunkers, before
// chunker-default) for files of a known code language (languages.ts) unless their connector says
// `chunker = "text"`. Its modules, tree-sitter and the grammar load with the first document chunked,
// so commands that do not chunk never import them.
import { definePlugin, STAGE } from '../../core/api/plugin.ts';

const plugin = definePlugin({
  name: 'chunker-code',
  version: '0.2.0',
  kbctx: '^0.2',
  provides: ['chunker:code'],
  optionsSchema: { type: 'object', additionalProperties: false, properties: {} },
  apply(kernel) {
    kernel.hooks.chunk.tapPromise({ name: 'chunker-code', stage: STAGE.LATE }, async ({ document, sizes }) => {
      const { chunkDocument } = await import('./chunk-document.ts');
      return chunkDocument(document, sizes);
    });
  },
});

export default plugin; // a named constant: see test/architecture.test.ts
