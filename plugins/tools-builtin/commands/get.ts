// `kbctx get <id>`: the document as JSON (404 → exit 4).
import type { Command } from 'commander';
import type { CliContext } from '../../cli/api.ts';
import { documentToWire, getDocument } from '../../../core/api/use-cases.ts';

export function registerGet(program: Command, ctx: CliContext): void {
  program
    .command('get')
    .description('print a document as JSON')
    .argument('<id>', 'document id (from search results)')
    .action(async (id: string) => {
      ctx.printJson(documentToWire(await getDocument(ctx.kbctx().store, id)));
    });
}
