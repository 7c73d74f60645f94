// The plugin of docs/plugins.md in TypeScript, twin of redact.lua: redacts a word in every document
// before it is chunked, and moves hits whose title mentions another word first. Enable it with
// `plugins = ["bundled", "./plugins/redact.ts"]` (paths are relative to the project folder).
// Only `import type` from kbctx: types are erased at run time, so the file needs no install.
import type { Plugin } from 'kbctx';

interface RedactOptions {
  word: string;
  boost: string;
}

const plugin: Plugin<RedactOptions> = {
  name: 'redact',
  version: '1.0.0',
  kbctx: '^0.2',
  // [plugin.redact], checked with ajv before `apply`; the defaults are filled in.
  optionsSchema: {
    type: 'object',
    additionalProperties: false,
    properties: { word: { type: 'string', default: 'secret' }, boost: { type: 'string', default: 'urgent' } },
  },
  apply(kernel, options) {
    // Returns the changed draft; `{ ...draft, skip: true }` leaves the document out.
    kernel.hooks.document.tap('redact', (draft) => ({
      ...draft,
      body: draft.body.replaceAll(options.word, '[redacted]'),
      title: draft.title.replaceAll(options.word, '[redacted]'),
    }));
    // `hits` holds up to max(request.limit × 3, 30) candidates; kbctx keeps the first request.limit.
    kernel.hooks.rank.tap('redact', (hits) => {
      const boosted = (title: string): boolean => title.toLowerCase().includes(options.boost);
      return [...hits.filter((h) => boosted(h.title)), ...hits.filter((h) => !boosted(h.title))];
    });
  },
};
export default plugin;
