// `kbctx get <id> [--lines 12-48]`: the document as JSON (404 → exit 4), with `--lines` only those lines of its body
// (documentLines, as the `get` tool: a bad range is the same bad_request naming `lines`).
import type { Command } from 'commander';
import type { CliContext } from '../../cli/api.ts';
import { documentLines, getDocument } from '../documents.ts';
import { documentToWire } from '../wire.ts';

export function registerGet(program: Command, ctx: CliContext): void {
  program
    .command('get')
    .description('print a document as JSON')
    .argument('<id>', 'document id (from search results)')
    .option('--lines <range>', "only these lines of the body: 12-48 (1-based, inclusive), a result's path:12-48")
    .action(async (id: string, opts: { lines?: string }) => {
      const doc = await getDocument(ctx.kbctx().store, id);
      if (opts.lines === undefined) return ctx.printJson(documentToWire(doc));
      const { document, range } = documentLines(doc, opts.lines);
      ctx.printJson({ ...documentToWire(document), line_start: range.start, line_end: range.end });
    });
}
