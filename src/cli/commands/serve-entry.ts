// Placeholder entry for the HTTP server until it lands: prints what is indexed instead of serving.
import type { CliContext } from '../context.ts';

export async function serveFromCli(ctx: CliContext, _options: Record<string, unknown>): Promise<void> {
  const s = ctx.lore().store.counts();
  ctx.io.out(`Indexed ${s.documents} documents (${s.chunks} chunks). Try: npx lore search "your question"\n`);
  await Promise.resolve();
}
