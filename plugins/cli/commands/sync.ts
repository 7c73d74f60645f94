// `kbctx sync <connector> [--full] [--dry-run] [--limit n] [--since when]`: run connectors and print one summary line
// each.
import { InvalidArgumentError, type Command } from 'commander';
import { KbctxError } from '../../../core/api/plugin.ts';
import type { PluginError } from '../../../core/api/plugin.ts';
import type { ErrorCode } from '../../../core/api/plugin.ts';
import { OUTSIDE_ROOT_FIX, outsideRootMessage, rootsOutsideProject } from '../../connector-filesystem/api.ts';
import { selectConnectors } from '../../../core/api/engine.ts';
import { syncConnectors, type SyncOptions, type SyncReport } from '../../../core/api/engine.ts';
import { syncReportToWire } from '../sync-wire.ts';
import { parseSince } from '../../tools-builtin/api.ts';
import type { CliContext } from '../context.ts';
import { createProgress, progressEveryMs } from '../progress.ts';

const LOCK_WAIT_MS = 600_000;

export function registerSync(program: Command, ctx: CliContext): void {
  program
    .command('sync')
    .description(
      'fetch, chunk and index documents: all, a type (filesystem, git, s3, script, or one an extension ' +
        'registers) or <type>:<name>',
    )
    .argument('<connector>', 'all | <type> | <type>:<name>')
    .option('--full', 'reprocess everything, ignoring fingerprints and checkpoints')
    .option('--dry-run', 'count what would change, writing nothing')
    .option('--limit <n>', 'at most n new or changed items per connector (deletes nothing)', parsePositive)
    .option('--since <when>', 'only items updated since a date (2026-01-31) or a duration (7d) (deletes nothing)')
    .option(
      '--no-wait',
      'fail at once (exit 7, conflict) instead of waiting while a running server syncs the same connector',
    )
    .action(
      async (
        target: string,
        opts: { full?: boolean; dryRun?: boolean; limit?: number; since?: string; wait?: boolean },
      ) => {
        const since = opts.since === undefined ? undefined : parseSince(opts.since, new Date(), '--since');
        const reports = await runSync(
          ctx,
          target,
          { full: opts.full === true, dryRun: opts.dryRun === true, limit: opts.limit, since },
          opts.wait !== false,
        );
        const failed = reports.find((r) => r.failure);
        if (failed?.failure) {
          throw new KbctxError(
            failed.failure.code as ErrorCode,
            `${reports.filter((r) => r.failure).length} of ${reports.length} connector(s) failed`,
          );
        }
        // Items that failed to read leave the index behind the source: not a success (exit 1, README).
        const unread = reports.filter((r) => r.errors > 0);
        if (unread.length > 0) {
          const which = unread.map((r) => `${r.errors} item(s) of ${r.connector}`).join(', ');
          throw new KbctxError(
            'connector_error',
            `${which} could not be read or indexed; the rest was indexed, and their stored copies kept`,
          );
        }
      },
    );
}

export async function runSync(
  ctx: CliContext,
  target: string,
  options: SyncOptions,
  wait = true,
): Promise<SyncReport[]> {
  const kbctx = ctx.kbctx('create');
  const refs = selectConnectors(kbctx.config, target);
  for (const outside of rootsOutsideProject(kbctx.config).filter((o) => refs.some((r) => r.label === o.connector))) {
    ctx.io.err(`warning: ${outsideRootMessage(outside, kbctx.config.baseDir)} (${OUTSIDE_ROOT_FIX})\n`);
  }
  // Extension connector types exist once their modules are loaded; a module that fails is reported, the rest sync.
  for (const f of await kbctx.ready()) ctx.io.err(`warning: ${f.label} not loaded: ${f.message}\n`);
  const connectors = await Promise.all(refs.map((r) => kbctx.index.createConnector(r)));
  const progress = createProgress(ctx.io.interactive && !ctx.json, (t) => ctx.io.err(t), {
    lines: !ctx.json,
    everyMs: progressEveryMs(ctx.io.env),
  });
  // One writer per connector: while a server syncs one, wait (said once on stderr) or, with --no-wait, fail.
  const lockWait = { timeoutMs: wait ? LOCK_WAIT_MS : 0, onWait: (m: string) => ctx.io.err(`${m}\n`) };
  // A document a plugin failed on is a note in its report; under KBCTX_DEBUG the plugin's stack is printed too.
  const onItemError = (sourceId: string, error: PluginError): void => {
    if (ctx.io.env['KBCTX_DEBUG'] && error.cause instanceof Error)
      ctx.io.err(`${sourceId}: ${error.cause.stack ?? error.cause.message}\n`);
  };
  const reports = await syncConnectors(
    { ...kbctx.index.syncDeps((p) => progress.update(p), lockWait), onItemError },
    connectors,
    options,
  );
  progress.done();
  if (ctx.json) {
    ctx.printJson({ dry_run: options.dryRun === true, connectors: reports.map(syncReportToWire) });
  } else {
    if (options.dryRun) ctx.io.out('Dry run: nothing was written.\n');
    for (const r of reports) printReport(ctx, r, options);
  }
  return reports;
}

function parsePositive(value: string): number {
  if (!/^\d+$/.test(value.trim()) || Number(value) < 1)
    throw new InvalidArgumentError('must be a positive whole number');
  return Number(value);
}

function printReport(ctx: CliContext, r: SyncReport, options: SyncOptions): void {
  if (r.failure) {
    ctx.io.err(`${r.connector}: failed: ${r.failure.message}\n`);
    return;
  }
  // A dry run counts what a sync would do: its counters say "would", never that something was written.
  const [upserted, written, deleted] = options.dryRun
    ? ['would upsert', 'would write chunks', 'would delete']
    : ['upserted', 'chunks written', 'deleted'];
  ctx.io.out(
    `${r.connector}: fetched ${r.fetched}, ${upserted} ${r.upserted}, ${written} ${r.chunksWritten}, ${deleted} ` +
      `${r.deleted}, ` +
      `unchanged ${r.unchanged}, skipped ${r.skipped}, errors ${r.errors} (${(r.durationMs / 1000).toFixed(2)} s)\n`,
  );
  const words = explain(r, options);
  if (words) ctx.io.out(`  ${words}\n`);
  const shown = r.notes.slice(0, 20);
  for (const note of shown) ctx.io.err(`  ${note}\n`);
  if (r.notes.length > shown.length) ctx.io.err(`  … and ${r.notes.length - shown.length} more\n`);
}

/**
 * The summary in plain words, where the counters alone mislead (a --full pass rewrites documents but keeps unchanged
 * chunks).
 */
function explain(r: SyncReport, options: SyncOptions): string | null {
  const would = options.dryRun ? 'would be ' : '';
  if (options.full && r.upserted > 0) {
    const kept =
      r.chunksWritten === 0
        ? 'their text was unchanged, so every chunk and embedding was kept'
        : `${r.chunksWritten} chunk(s) ${would}new or changed, the rest kept with their embeddings`;
    return `--full re-read all ${r.fetched} item(s): ${r.upserted} document(s) ${would}rewritten; ${kept}.`;
  }
  if (options.dryRun)
    return `${r.upserted} document(s) would be added or updated (${r.chunksWritten} chunk(s)), ${r.deleted} removed.`;
  return null;
}
