// `lore init`: create the database and run migrations (idempotent).
import type { Command } from 'commander';
import { SCHEMA_VERSION } from '../../store/sqlite/migrations.ts';
import type { CliContext } from '../context.ts';

export function registerInit(program: Command, ctx: CliContext): void {
  program
    .command('init')
    .description('create the index database and bring its schema up to date (safe to repeat)')
    .action(() => {
      const store = ctx.lore().store;
      if (ctx.json) ctx.printJson({ db_path: store.path, schema_version: SCHEMA_VERSION });
      else ctx.io.out(`Index ready at ${store.path} (schema version ${SCHEMA_VERSION})\n`);
    });
}
