// `kbctx migrate --to <path-or-url> [--force]`: copies the configured index (documents, chunks,
// embeddings, checkpoints) into another store, verifies the copy, and says what it did. The source
// is left as it was. Exit 7 (conflict) when the target holds an index and --force is not given, or
// when the final check finds a difference.
import path from 'node:path';
import type { Command } from 'commander';
import { badRequest, KbctxError, type Kbctx, type Store } from '../../../core/api/plugin.ts';
import { isObjectStorePath } from '../../store-lancedb/api.ts';
import { createProgress, progressEveryMs, type CliContext } from '../../cli/api.ts';
import { migrateIndex, type MigrateReport } from '../migrate-index.ts';

const POSTGRES_URL = /^postgres(ql)?:\/\//i;
/** A target folder ending in `.lance` is a LanceDB index (store-lancedb). */
const LANCE_PATH = /\.lance\/?$/i;
const ANY_URL = /^[a-z][a-z0-9+.-]*:\/\//i;

export function registerMigrate(program: Command, ctx: CliContext): void {
  program
    .command('migrate')
    .description(
      'copy the index (documents, chunks, embeddings, checkpoints) ' +
        'into an SQLite file, a PostgreSQL database or a LanceDB folder',
    )
    .requiredOption(
      '--to <target>',
      'an SQLite file path, a postgres:// URL, a folder ending in .lance, or s3://bucket/prefix (LanceDB)',
    )
    .option('--force', 'replace what the target already holds (it becomes a copy of this index)')
    .action(async (opts: { to: string; force?: boolean }) => {
      const kbctx = ctx.kbctx();
      await kbctx.store.counts(); // the source opened first: a missing index leaves no target behind
      const target = openTargetStore(opts.to, kbctx, ctx.io.cwd);
      const progress = createProgress(ctx.io.interactive && !ctx.json, (t) => ctx.io.err(t), {
        lines: !ctx.json,
        label: 'migrate',
        everyMs: progressEveryMs(ctx.io.env),
      });
      let report: MigrateReport;
      try {
        report = await migrateIndex(kbctx.store, target, {
          force: opts.force === true,
          onProgress: (p) => progress.update({ connector: p.phase, done: p.done, total: p.total }),
        });
      } finally {
        progress.done();
        await target.close();
      }
      if (ctx.json) ctx.printJson(toWire(kbctx.store.path, target.path, report));
      else ctx.io.out(summary(kbctx.store.path, target.path, report));
      if (report.mismatches.length > 0) {
        throw new KbctxError(
          'conflict',
          `the copy differs from the source (${report.mismatches.join('; ')}): ` +
            `did a sync run meanwhile? Run again with --force`,
        );
      }
    });
}

/**
 * The store a target names: a postgres:// URL, a LanceDB folder (`….lance`) or bucket (`s3://bucket/prefix`, with
 * the configured `[db] storage_options` and the AWS_* variables) or an SQLite file (paths relative to the working
 * directory).
 * Refuses the configured index itself (copying an index onto itself with --force would empty it).
 */
export function openTargetStore(target: string, kbctx: Kbctx, cwd: string): Store {
  const { config } = kbctx;
  const url = POSTGRES_URL.test(target);
  const bucket = isObjectStorePath(target);
  if (!url && !bucket && ANY_URL.test(target))
    throw badRequest(`--to ${target}: expected a postgres:// URL, an s3:// LanceDB location or an SQLite file path`);
  const file = url ? null : bucket ? target.trim().replace(/\/+$/, '') : path.resolve(cwd, target);
  // A local [db] path is absolute; one a store kept as written (a bucket) is not.
  const configured = path.isAbsolute(config.db.path)
    ? path.resolve(cwd, config.db.path)
    : config.db.path.replace(/\/+$/, '');
  if (url ? config.db.url === target : config.db.url === null && file === configured) {
    throw badRequest('--to names the configured index itself: give another file or database');
  }
  try {
    // Through the plugin tapping createStore.for(engine), with the configured [db] settings (pool size, keyword
    // engine).
    if (file === null) return kbctx.index.openStore({ engine: 'postgres', url: target, path: config.db.path });
    const engine = bucket || LANCE_PATH.test(target) ? 'lancedb' : 'sqlite';
    return kbctx.index.openStore({ engine, url: null, path: file });
  } catch (error) {
    // The SQLite file cannot be created there (a missing permission, a file where a folder goes): --to is wrong.
    if (error instanceof KbctxError && error.code === 'config_error')
      throw badRequest(`--to ${target}: ${error.message}`);
    throw error;
  }
}

function summary(from: string, to: string, r: MigrateReport): string {
  const lines: string[] = [];
  if (r.replaced.documents > 0 || r.replaced.checkpoints > 0) {
    lines.push(
      `Replaced what ${to} held: ${r.replaced.documents} documents, ${r.replaced.chunks} chunks, ` +
        `${r.replaced.embedded} embeddings, ` +
        `${r.replaced.checkpoints} checkpoints (${r.removed} documents not in the source deleted)`,
    );
  }
  lines.push(
    `Copied ${r.documents} documents, ${r.chunks} chunks, ${r.embeddings} embeddings and ${r.checkpoints} ` +
      `checkpoints ` +
      `from ${from} to ${to} in ${(r.durationMs / 1000).toFixed(1)} s`,
  );
  if (r.mismatches.length === 0) {
    lines.push(
      `Verified: the target holds ${r.target.documents} documents, ${r.target.chunks} chunks and ` +
        `${r.target.embedded} embeddings, as the source does`,
    );
  } else {
    lines.push('Verification FAILED:', ...r.mismatches.map((m) => `  ${m}`));
  }
  return `${lines.join('\n')}\n`;
}

function toWire(from: string, to: string, r: MigrateReport): Record<string, unknown> {
  return {
    source: from,
    target: to,
    documents: r.documents,
    chunks: r.chunks,
    embeddings: r.embeddings,
    checkpoints: r.checkpoints,
    replaced: r.replaced,
    removed: r.removed,
    source_counts: r.source,
    target_counts: r.target,
    verified: r.mismatches.length === 0,
    mismatches: r.mismatches,
    duration_ms: Math.round(r.durationMs),
  };
}
