// `kbctx export [--output <path>] [--quiet]`: every document and chunk as one JSON object, streamed row by
// row with back-pressure, so memory stays bounded whatever the index size (issue 10, defect 7). Progress
// and, when the JSON goes to stdout, the summary line go to stderr only: they never mix into the JSON.
import { createWriteStream, openSync, type WriteStream } from 'node:fs';
import { once } from 'node:events';
import path from 'node:path';
import type { Writable } from 'node:stream';
import type { Command } from 'commander';
import { badRequest } from '../../../core/api/plugin.ts';
import { pathProblem } from '../../../core/api/use-cases.ts';
import { exportJsonPieces } from '../export-json.ts';
import { createProgress, formatBytes, progressEveryMs, type CliContext } from '../../cli/api.ts';

export function registerExport(program: Command, ctx: CliContext): void {
  program
    .command('export')
    .description('write {documents, chunks} as JSON to a file or stdout')
    .option('-o, --output <path>', 'file to write (default: stdout)')
    .option('-q, --quiet', 'no progress and no summary line')
    .action(async (opts: { output?: string; quiet?: boolean }) => {
      const started = Date.now();
      const store = ctx.kbctx().store;
      const outputPath = opts.output ? path.resolve(ctx.io.cwd, opts.output) : null;
      const file = opts.output && outputPath ? openOutput(outputPath, opts.output) : null;
      const out = file ?? ctx.io.stdout;
      // No progress when JSON is being dumped onto the same terminal: the redrawn bar would garble it.
      const show = opts.quiet !== true && !ctx.json && !(file === null && isTerminal(out));
      const progress = createProgress(ctx.io.interactive && show, (t) => ctx.io.err(t), {
        lines: show,
        label: 'export',
        everyMs: progressEveryMs(ctx.io.env),
      });
      const total = await store.counts();
      const counts = { documents: 0, chunks: 0 };
      let bytes = 0;
      const report = (): void => {
        const done = counts.documents + counts.chunks;
        // Rows written by a concurrent sync can take the count past the total read at the start.
        progress.update({ connector: 'documents+chunks', done, total: Math.max(done, total.documents + total.chunks) });
      };
      report();
      const pieces = tracked(exportJsonPieces(store, counts), (piece) => {
        bytes += Buffer.byteLength(piece);
        report();
      });
      if (out) await writeAll(out, pieces);
      else for await (const piece of pieces) ctx.io.out(piece);
      if (file) {
        file.end();
        await once(file, 'finish');
      }
      progress.done();
      const seconds = (Date.now() - started) / 1000;
      const summary =
        `${counts.documents} documents and ${counts.chunks} chunks to ${opts.output || 'stdout'} ` +
        `(${formatBytes(bytes)}, ${seconds.toFixed(2)} s)\n`;
      if (file && ctx.json)
        ctx.printJson({ output: outputPath, ...counts, bytes, duration_ms: Math.round(seconds * 1000) });
      else if (file && opts.quiet !== true) ctx.io.out(`Wrote ${summary}`);
      else if (!file && show) ctx.io.err(`Exported ${summary}`);
    });
}

/** Opens (creates or truncates) the --output file now, so a path the user got wrong is a usage error. */
function openOutput(file: string, output: string): WriteStream {
  try {
    return createWriteStream(file, { fd: openSync(file, 'w') });
  } catch (error) {
    const problem = pathProblem(error, file);
    if (problem === null) throw error;
    throw badRequest(`--output ${output}: ${problem}`);
  }
}

/**
 * Passes the pieces on, calling `onPiece` after each, and lets the event loop turn between pieces:
 * writes to a file or pipe on stdout can all complete synchronously, and the timer that prints the
 * periodic progress line must still get to run.
 */
async function* tracked(pieces: AsyncIterable<string>, onPiece: (piece: string) => void): AsyncGenerator<string> {
  for await (const piece of pieces) {
    yield piece;
    onPiece(piece);
    await new Promise((resolve) => setImmediate(resolve));
  }
}

/** Writes every piece, waiting for 'drain' whenever the stream's buffer is full. Rejects on a stream error. */
async function writeAll(out: Writable, pieces: AsyncIterable<string>): Promise<void> {
  for await (const piece of pieces) {
    if (!out.write(piece)) await once(out, 'drain');
  }
}

function isTerminal(stream: Writable | undefined): boolean {
  return stream !== undefined && 'isTTY' in stream && stream.isTTY === true;
}
