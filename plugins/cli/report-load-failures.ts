// Parts that failed to load (script tools and agents, extensions) are warnings on stderr, never errors.
import type { LoadFailure } from '../../core/api/plugin.ts';
import type { CliContext } from './context.ts';

export function reportLoadFailures(ctx: CliContext, failures: readonly LoadFailure[]): void {
  for (const f of failures) ctx.io.err(`warning: ${f.label} not loaded: ${f.message}\n`);
}
