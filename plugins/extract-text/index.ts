// First-party plugin: file text for the file connectors (filesystem, git, S3, a third party's) — Markdown with its
// front matter and title, plain text, binary files skipped — after the `extract.for(extension)` taps, which it hands
// them as the `fileExtraction` service. The code loads with the first file (api.ts; ADR 0201).
import { definePlugin, indexService, type IndexHost } from '../../core/api/plugin.ts';
import { fileExtraction } from './api.ts';

const plugin = definePlugin({
  name: 'extract-text',
  version: '0.2.0',
  kbctx: '^0.2',
  optionsSchema: { type: 'object', additionalProperties: false, properties: {} },
  apply(kernel) {
    // The taps are the kernel's hook, asked by the host (`kbctx.index`), which is provided after the bundled plugins.
    let index: IndexHost | undefined;
    kernel.provide(fileExtraction, (request) => (index ??= kernel.use(indexService)).extract(request));
  },
});

export default plugin; // a named constant: see test/architecture.test.ts
