// `kbctx init`: create the index and run migrations (idempotent): the SQLite file, or the tables of the
// PostgreSQL database at [db] url (opening the store migrates it, under an advisory lock).
import type { Command } from 'commander';
import type { CliContext } from '../context.ts';

export function registerInit(program: Command, ctx: CliContext): void {
  program
    .command('init')
    .description('create the index (SQLite file or PostgreSQL tables) and bring its schema up to date (safe to repeat)')
    .action(async () => {
      const kbctx = ctx.kbctx('create');
      const counts = await kbctx.store.counts(); // opens and migrates; PostgreSQL: also catches the replica's mirror up
      const { engine } = kbctx.index;
      const schemaVersion = await kbctx.index.schemaVersion();
      if (ctx.json)
        ctx.printJson({
          db_path: kbctx.store.path,
          engine: engine.toLowerCase(),
          schema_version: schemaVersion,
          documents: counts.documents,
        });
      else
        ctx.io.out(
          `Index ready at ${kbctx.store.path} (${engine}, schema version ${schemaVersion ?? 'unknown'}; ` +
            `${counts.documents} documents)\n`,
        );
    });
}
