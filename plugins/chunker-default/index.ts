// First-party plugin: the default chunker (chunker.ts: headings, code fences and paragraphs packed
// within `[chunking]` max_tokens, with overlap_tokens). Taps last, so a user's chunker wins;
// dropped (`"!chunker-default"`), documents need another plugin's chunker.
import { definePlugin, requireOwn, STAGE } from '../../core/api/plugin.ts';
// Required on the first document chunked, not with this index: `kbctx search` never chunks (ADR 0130).
import type * as Chunker from './chunker.ts';

const plugin = definePlugin({
  name: 'chunker-default',
  version: '0.2.0',
  kbctx: '^0.2',
  provides: ['chunker:default'],
  optionsSchema: { type: 'object', additionalProperties: false, properties: {} },
  apply(kernel) {
    let chunkPieces: typeof Chunker.chunkPieces | undefined;
    kernel.hooks.chunk.tap({ name: 'chunker-default', stage: STAGE.FALLBACK }, (request) => {
      chunkPieces ??= requireOwn<typeof Chunker>(import.meta.url, './chunker.ts').chunkPieces;
      return chunkPieces(request.document.body, request.sizes);
    });
  },
});

export default plugin; // a named constant: see test/architecture.test.ts
