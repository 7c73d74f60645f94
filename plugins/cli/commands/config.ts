// `kbctx config schema`: the JSON Schema of the config file as the loaded plugins define it — the
// kernel's keys, the bundled plugins' sections (`[server]`, the connector types) and the connector
// types of the plugins the config loads (ADR 0164). The published config/kbctx.schema.json is the
// same function over the bundled set alone (`npm run config:schema`).
import type { CliProgram } from '../../../core/api/plugin.ts';
import { loadedConfigJsonSchema } from '../../../core/api/engine.ts';
import type { Command } from 'commander';
import type { CliContext } from '../context.ts';

export function registerConfig(cli: CliProgram, ctx: CliContext): void {
  const program = cli as Command;
  const config = program.command('config').description('the config file: its JSON Schema (`config schema`)');
  config
    .command('schema')
    .description(
      "print the config's JSON Schema: the kernel's keys and every loaded plugin's sections (for editors and checks)",
    )
    .action(async () => {
      const kbctx = ctx.kbctx();
      await kbctx.ready(); // the configured plugins' connector types too
      ctx.printJson(loadedConfigJsonSchema(kbctx.kernel));
    });
}
