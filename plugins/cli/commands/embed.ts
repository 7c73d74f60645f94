// `kbctx embed pending` / `kbctx embed rebuild`: embed chunks without a current vector, or drop all
// vectors and regenerate them. Exit non-zero when the provider failed (what was written is kept).
import { InvalidArgumentError, type Command } from 'commander';
import { embedPending, type EmbedOptions, type EmbedReport } from '../../../core/api/engine.ts';
import { configError, KbctxError } from '../../../core/api/plugin.ts';
import type { ErrorCode } from '../../../core/api/plugin.ts';
import type { CliContext } from '../context.ts';
import { createEmbedProgress } from '../embed-progress.ts';
import { progressEveryMs } from '../progress.ts';
import { providerChoices } from '../../../core/api/engine.ts';

export function registerEmbed(program: Command, ctx: CliContext): void {
  const embed = program.command('embed').description('compute embeddings for semantic and hybrid search');
  embed
    .command('pending')
    .description('embed chunks that have no current embedding')
    .option('--limit <n>', 'embed at most n chunks (the rest stay pending)', positive)
    .option('--dry-run', 'only count the pending chunks')
    .option('--batch-size <n>', 'chunks per provider request (default: [embedding] batch_size)', positive)
    .action((opts: { limit?: number; dryRun?: boolean; batchSize?: number }) => run(ctx, { rebuild: false, ...opts }));
  embed
    .command('rebuild')
    .description('drop all embeddings and regenerate them (after a model or dims change)')
    .action(() => run(ctx, { rebuild: true }));
}

function positive(value: string): number {
  if (!/^\d+$/.test(value.trim()) || Number(value) < 1)
    throw new InvalidArgumentError('must be a positive whole number');
  return Number(value);
}

async function run(ctx: CliContext, options: EmbedOptions): Promise<void> {
  const kbctx = ctx.kbctx('write');
  await kbctx.ready(); // a configured plugin may provide or override the embedder
  const embedder = kbctx.index.embedder();
  if (!embedder) {
    throw configError(
      `no embedding provider is configured: set [embedding] provider = ` +
        `${providerChoices(kbctx.index.embeddingProviders())} in the config`,
    );
  }
  const progress = createEmbedProgress(ctx.io.interactive && !ctx.json, (t) => ctx.io.err(t), {
    lines: !ctx.json,
    everyMs: progressEveryMs(ctx.io.env),
  });
  const report = await embedPending({ store: kbctx.store, embedder, onProgress: (p) => progress.update(p) }, options);
  progress.done();
  if (ctx.json) ctx.printJson({ dry_run: options.dryRun === true, ...toWire(report) });
  else if (options.dryRun)
    ctx.io.out(`Dry run: ${report.pending} chunk(s) pending for ${report.model}; nothing was embedded.\n`);
  else {
    ctx.io.out(summary(report));
    const left = options.limit === undefined || report.failure ? 0 : await kbctx.store.countPendingEmbeddings(embedder);
    if (left > 0)
      ctx.io.out(
        `${left} chunk(s) still pending (--limit ${options.limit}); run \`kbctx embed pending\` again to continue\n`,
      );
  }
  if (report.failure)
    throw new KbctxError(report.failure.code as ErrorCode, `embedding stopped: ${report.failure.message}`);
}

function summary(r: EmbedReport): string {
  const lines: string[] = [];
  if (r.dropped > 0) lines.push(`dropped ${r.dropped} embedding(s)`);
  if (r.pending === 0) lines.push(`all chunks are already embedded (${r.model})`);
  else
    lines.push(
      `embedded ${r.embedded} of ${r.pending} pending chunk(s) with ${r.model} in ` +
        `${(r.durationMs / 1000).toFixed(1)} s`,
    );
  if (r.index && r.index.index !== 'none') lines.push(`vector index: ${r.index.index} (${r.index.vectors} vectors)`);
  if (r.failure) lines.push(`${r.pending - r.embedded} chunk(s) left; run \`kbctx embed pending\` again to continue`);
  return `${lines.join('\n')}\n`;
}

function toWire(r: EmbedReport): Record<string, unknown> {
  return {
    model: r.model,
    pending: r.pending,
    embedded: r.embedded,
    dropped: r.dropped,
    failure: r.failure,
    vector_index: r.index,
    duration_ms: Math.round(r.durationMs),
  };
}
