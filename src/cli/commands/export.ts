// `lore export [--output <path>]`: every document and chunk as one JSON object.
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import type { Command } from 'commander';
import { exportIndex } from '../../app/documents.ts';
import { chunkToWire, documentToWire } from '../../app/wire.ts';
import type { CliContext } from '../context.ts';

export function registerExport(program: Command, ctx: CliContext): void {
  program
    .command('export')
    .description('write {documents, chunks} as JSON to a file or stdout')
    .option('-o, --output <path>', 'file to write (default: stdout)')
    .action((opts: { output?: string }) => {
      const { documents, chunks } = exportIndex(ctx.lore().store);
      const text = `${JSON.stringify({ documents: documents.map(documentToWire), chunks: chunks.map(chunkToWire) }, null, 2)}\n`;
      if (!opts.output) return ctx.io.out(text);
      const file = path.resolve(ctx.io.cwd, opts.output);
      writeFileSync(file, text);
      const summary = { output: file, documents: documents.length, chunks: chunks.length };
      if (ctx.json) ctx.printJson(summary);
      else ctx.io.out(`Wrote ${documents.length} documents and ${chunks.length} chunks to ${opts.output}\n`);
    });
}
