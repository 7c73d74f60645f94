// First-party plugin: the code chunker. Taps `chunk` (stage LATE: after a user's chunkers, before
// chunker-default) for files of a known code language (languages.ts) unless their connector says
// `chunker = "text"`. Its modules, tree-sitter and the grammar load with the first document chunked,
// so commands that do not chunk never import them.
import { definePlugin, STAGE } from '../../core/api/plugin.ts';
import type * as ChunkDocument from './chunk-document.ts';

const plugin = definePlugin({
  name: 'chunker-code',
  version: '0.2.0',
  kbctx: '^0.2',
  provides: ['chunker:code'],
  optionsSchema: { type: 'object', additionalProperties: false, properties: {} },
  apply(kernel) {
    // One import for the run, not one per document: a repeated `import()` still resolves the specifier
    // through the module loader each time (~0.3 s of a full index of 5k Markdown files, ADR 0130).
    let loaded: Promise<typeof ChunkDocument> | undefined;
    kernel.hooks.chunk.tapPromise({ name: 'chunker-code', stage: STAGE.LATE }, async ({ document, sizes }) => {
      loaded ??= import('./chunk-document.ts');
      const { chunkDocument } = await loaded;
      return chunkDocument(document, sizes);
    });
  },
});

export default plugin; // a named constant: see test/architecture.test.ts
