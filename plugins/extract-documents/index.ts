// First-party plugin: text from HTML, PDF, DOCX, PPTX and XLSX files for the file connectors
// (filesystem, git, S3). Taps last per extension, so a user's extractor overrides a format.
import { definePlugin, STAGE } from '../../core/api/plugin.ts';
import { extractWith, FORMATS } from './formats.ts';

const plugin = definePlugin({
  name: 'extract-documents',
  version: '0.2.0',
  kbctx: '^0.2',
  provides: Object.keys(FORMATS).map((ext) => `format:${ext}`),
  optionsSchema: { type: 'object', additionalProperties: false, properties: {} },
  apply(kernel) {
    for (const [ext, parser] of Object.entries(FORMATS)) {
      kernel.hooks.extract
        .for(ext)
        .tapPromise({ name: 'extract-documents', stage: STAGE.FALLBACK }, (request) =>
          extractWith(parser, request.bytes),
        );
    }
  },
});

export default plugin; // a named constant: see test/architecture.test.ts
