// The cli plugin's contract entry (ADR 0160, 0170): what the commands other plugins add through the
// `commands` hook use — the `kbctx.cli` service (the CLI's context: output, --json, the config and the
// host), provided by the runner before it calls the hook, and the helpers for tables, progress lines
// and `key=value` arguments. Light: the helpers' files load nothing but core's plugin entry.
import { createServiceRef } from '../../core/api/plugin.ts';
import type { CliContext } from './context.ts';

export type { CliContext, CliIO, GlobalOptions } from './context.ts';
export const cliService = createServiceRef<CliContext>('kbctx.cli');
export { formatBytes, formatTable } from './table.ts';
export { createProgress, progressEveryMs, type ProgressOptions } from './progress.ts';
export { collect, parseKeyValues } from './key-values.ts';
