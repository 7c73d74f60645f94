// A child process for the mirror crash test: opens a PostgreSQL store with a file mirror (argv: url,
// mirror path), says `ready` once caught up, and waits to be killed.
import { openSqliteStore } from '../../plugins/store-sqlite/sqlite-store.ts';
import { openPostgresStore } from '../../plugins/store-postgres/pg-store.ts';

const [url, mirrorPath] = process.argv.slice(2);
const store = openPostgresStore(url!, { openMirror: (f) => openSqliteStore(f), mirrorPath: mirrorPath! });
process.stdout.write(`opened\n`);
await store.counts();
process.stdout.write(`ready\n`);
setInterval(() => undefined, 60_000);
