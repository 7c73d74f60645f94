// `kbctx start` (what `npm start` runs): sync every configured connector, then serve.
import type { Command } from 'commander';
import type { CliContext } from '../context.ts';
import { runSync } from './sync.ts';

export function registerStart(program: Command, ctx: CliContext): void {
  program
    .command('start')
    .description(
      'sync all connectors, then start the server (the built-in config indexes ./ when no config file exists)',
    )
    .action(async () => {
      const config = ctx.config();
      if (!config.file)
        ctx.io.err(
          'No config file found (-c, $KBCTX_CONFIG, $CTX_CONFIG, config/kbctx.toml, config/kbctx.config.mjs, ' +
            '.ctx/config.toml, config/ctx.toml): using the built-in config, which indexes Markdown and text under ' +
            'the current folder.\n',
        );
      await runSync(ctx, 'all', { full: false });
      const { serveFromCli } = await import('./serve-entry.ts');
      await serveFromCli(ctx, {});
    });
}
