// `lore export [--output <path>]`: every document and chunk as one JSON object, streamed row by row
// with back-pressure, so memory stays bounded whatever the index size (issue 10, defect 7).
import { createWriteStream } from 'node:fs';
import { once } from 'node:events';
import path from 'node:path';
import type { Writable } from 'node:stream';
import type { Command } from 'commander';
import { exportJsonPieces } from '../../app/documents.ts';
import type { CliContext } from '../context.ts';

export function registerExport(program: Command, ctx: CliContext): void {
  program
    .command('export')
    .description('write {documents, chunks} as JSON to a file or stdout')
    .option('-o, --output <path>', 'file to write (default: stdout)')
    .action(async (opts: { output?: string }) => {
      const store = ctx.lore().store;
      const counts = { documents: 0, chunks: 0 };
      if (!opts.output) {
        const stdout = ctx.io.stdout;
        if (!stdout) for await (const piece of exportJsonPieces(store, counts)) ctx.io.out(piece);
        else await writeAll(stdout, exportJsonPieces(store, counts));
        return;
      }
      const file = path.resolve(ctx.io.cwd, opts.output);
      const out = createWriteStream(file);
      await writeAll(out, exportJsonPieces(store, counts));
      out.end();
      await once(out, 'finish');
      const summary = { output: file, ...counts };
      if (ctx.json) ctx.printJson(summary);
      else ctx.io.out(`Wrote ${counts.documents} documents and ${counts.chunks} chunks to ${opts.output}\n`);
    });
}

/** Writes every piece, waiting for 'drain' whenever the stream's buffer is full. Rejects on a stream error. */
async function writeAll(out: Writable, pieces: AsyncIterable<string>): Promise<void> {
  for await (const piece of pieces) {
    if (!out.write(piece)) await once(out, 'drain');
  }
}
