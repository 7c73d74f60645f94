// `kbctx query-log export --beir <dir> [--log <file>] [--top <n>]`: a query log as a BEIR-style folder
// (queries.jsonl, qrels/test.tsv) that `kbctx eval --queries … --qrels …` runs against the configured index.
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { InvalidArgumentError, type Command } from 'commander';
import { badRequest } from '../../../core/api/plugin.ts';
import type { CliContext } from '../../cli/api.ts';
import { queryLogConfigOf } from '../index.ts';
import { logToBeir } from '../log-to-beir.ts';

const DEFAULT_TOP = 3;

export function registerQueryLog(program: Command, ctx: CliContext): void {
  const command = program.command('query-log').description('work with the query log ([query_log] file)');
  command
    .command('export')
    .description(
      'turn the query log into queries and pseudo-qrels (each query’s last logged top results) for kbctx eval',
    )
    .requiredOption('--beir <dir>', 'the folder to write: queries.jsonl and qrels/test.tsv')
    .option('--log <file>', 'the log to read (default: [query_log] file)')
    .option(
      '--top <n>',
      `how many of each query's logged results count as relevant (default: ${DEFAULT_TOP})`,
      parseTop,
    )
    .action((opts: { beir: string; log?: string; top?: number }) => {
      const file = opts.log ? path.resolve(ctx.io.cwd, opts.log) : configuredLog(ctx);
      let text: string;
      try {
        text = readFileSync(file, 'utf8');
      } catch {
        throw badRequest(`the query log ${file} cannot be read`);
      }
      const set = logToBeir(text, opts.top ?? DEFAULT_TOP);
      const dir = path.resolve(ctx.io.cwd, opts.beir);
      mkdirSync(path.join(dir, 'qrels'), { recursive: true });
      writeFileSync(path.join(dir, 'queries.jsonl'), set.queries.map((q) => `${JSON.stringify(q)}\n`).join(''));
      writeFileSync(
        path.join(dir, 'qrels', 'test.tsv'),
        `query-id\tcorpus-id\tscore\n${set.qrels.map((r) => `${r.join('\t')}\n`).join('')}`,
      );
      const summary = {
        dir,
        queries: set.queries.length,
        lines: set.lines,
        redacted: set.redacted,
        empty: set.empty,
        malformed: set.malformed,
      };
      if (ctx.json) ctx.printJson(summary);
      else
        ctx.io.out(
          `${summary.queries} queries from ${summary.lines} lines (${summary.redacted} redacted, ` +
            `${summary.empty} without results, ${summary.malformed} unreadable: left out) → ${dir}\n` +
            `compare settings against them: kbctx eval --queries ${path.join(dir, 'queries.jsonl')} --qrels ` +
            `${path.join(dir, 'qrels', 'test.tsv')} --compare\n`,
        );
    });
}

function configuredLog(ctx: CliContext): string {
  const config = queryLogConfigOf(ctx.config());
  if (config === null) throw badRequest('no query log is configured ([query_log] file): name one with --log <file>');
  return config.file;
}

function parseTop(value: string): number {
  if (!/^\d+$/.test(value.trim()) || Number(value) < 1) throw new InvalidArgumentError('must be a whole number ≥ 1');
  return Number(value);
}
