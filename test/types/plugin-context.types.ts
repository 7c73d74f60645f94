// Type test, checked by `npm run typecheck` (never run): a plugin author's `ctx.search/get/sources`
// answer with the wire types (the REST bodies), so `hits[0].title` is a string, not `unknown`. The
// `@ts-expect-error` lines fail the typecheck if the answers lose their types (`any` or `unknown`).
import {
  definePlugin,
  type IndexServices,
  type KbctxDocument,
  type SearchHit,
  type SourceInfo,
} from '../../core/index.ts';
import { indexToolsOf } from '../../plugins/tools-builtin/index-tools.ts';

export default definePlugin({
  name: 'typed-ctx',
  version: '1.0.0',
  kbctx: '^0.2',
  apply(kernel) {
    kernel.hooks.tools.tap('typed-ctx', (tools) =>
      tools.add({
        name: 'first_title',
        call: async (_params, ctx) => {
          const { results: hits } = await ctx.search({ query: 'fox', limit: 1 });
          const title: string | undefined = hits[0]?.title;
          const hit: SearchHit | undefined = hits[0];
          // @ts-expect-error a title is a string
          const wrong: number | undefined = hits[0]?.title;
          const doc: KbctxDocument = await ctx.get(hit?.id ?? '');
          const body: string = doc.body;
          const sources: SourceInfo[] = (await ctx.sources()).sources;
          // @ts-expect-error document_count is a number
          const count: string | undefined = sources[0]?.document_count;
          return { title, wrong, body, count };
        },
      }),
    );
  },
});

// The implementation (tools-builtin's `kbctx.index-tools` service) satisfies the typed contract.
indexToolsOf satisfies (deps: never) => IndexServices;
