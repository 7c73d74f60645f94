// `lore sync <connector> [--full]`: run connectors and print one summary line each.
import type { Command } from 'commander';
import { LoreError } from '../../core/errors.ts';
import type { ErrorCode } from '../../core/error-table.ts';
import { selectConnectors } from '../../app/select-connectors.ts';
import { syncConnectors, type SyncReport } from '../../app/sync.ts';
import { syncReportToWire } from '../../app/wire.ts';
import type { CliContext } from '../context.ts';
import { createProgress } from '../progress.ts';

export function registerSync(program: Command, ctx: CliContext): void {
  program
    .command('sync')
    .description('fetch, chunk and index documents: all, a type (filesystem, git, s3, script, or one an extension registers) or <type>:<name>')
    .argument('<connector>', 'all | <type> | <type>:<name>')
    .option('--full', 'reprocess everything, ignoring fingerprints and checkpoints')
    .action(async (target: string, opts: { full?: boolean }) => {
      const reports = await runSync(ctx, target, opts.full === true);
      const failed = reports.find((r) => r.failure);
      if (failed?.failure) {
        throw new LoreError(failed.failure.code as ErrorCode, `${reports.filter((r) => r.failure).length} of ${reports.length} connector(s) failed`);
      }
    });
}

export async function runSync(ctx: CliContext, target: string, full: boolean): Promise<SyncReport[]> {
  const lore = ctx.lore();
  const refs = selectConnectors(lore.config, target);
  // Extension connector types exist once their modules are loaded; a module that fails is reported, the rest sync.
  for (const f of await lore.loadExtensions()) ctx.io.err(`warning: ${f.label} not loaded: ${f.message}\n`);
  const connectors = await Promise.all(refs.map((r) => lore.createConnector(r)));
  const progress = createProgress(ctx.io.interactive && !ctx.json, (t) => ctx.io.err(t));
  const reports = await syncConnectors(lore.syncDeps((p) => progress.update(p)), connectors, { full });
  progress.done();
  if (ctx.json) {
    ctx.printJson({ connectors: reports.map(syncReportToWire) });
  } else {
    for (const r of reports) printReport(ctx, r);
  }
  return reports;
}

function printReport(ctx: CliContext, r: SyncReport): void {
  if (r.failure) {
    ctx.io.err(`${r.connector}: failed: ${r.failure.message}\n`);
    return;
  }
  ctx.io.out(
    `${r.connector}: fetched ${r.fetched}, upserted ${r.upserted}, chunks written ${r.chunksWritten}, deleted ${r.deleted}, ` +
      `unchanged ${r.unchanged}, skipped ${r.skipped}, errors ${r.errors} (${(r.durationMs / 1000).toFixed(2)} s)\n`,
  );
  const shown = r.notes.slice(0, 20);
  for (const note of shown) ctx.io.err(`  ${note}\n`);
  if (r.notes.length > shown.length) ctx.io.err(`  … and ${r.notes.length - shown.length} more\n`);
}
