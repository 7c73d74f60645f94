// The optional native dependencies, imported on first use: a platform without a LanceDB build still
// installs kbctx, and selecting this store then fails with a config error naming the plugin.
import { configError } from '../../core/api/plugin.ts';
import { availableParallelism } from 'node:os';
import type * as Lancedb from '@lancedb/lancedb';
import type * as Arrow from 'apache-arrow';

export interface LanceModule {
  lancedb: typeof Lancedb;
  arrow: typeof Arrow;
}

const MIN_CPU_THREADS = 8;
let loading: Promise<LanceModule> | null = null;

export function loadLance(): Promise<LanceModule> {
  // 0.31 (the newest with builds for every platform on the registry) hangs when Lance's CPU pool is as
  // small as a 2-core machine makes it: building an FTS index (lancedb#3568, fixed in 0.39) and, as
  // measured here, a merge-insert while another connection reads (never settles at 2 threads, fine at
  // 4). So the pool gets at least MIN_CPU_THREADS whatever the machine.
  if (!(Number(process.env['LANCE_CPU_THREADS']) >= MIN_CPU_THREADS))
    process.env['LANCE_CPU_THREADS'] = String(Math.max(MIN_CPU_THREADS, availableParallelism()));
  loading ??= Promise.all([import('@lancedb/lancedb'), import('apache-arrow')]).then(
    ([lancedb, arrow]) => ({ lancedb, arrow }),
    (error: unknown) => {
      loading = null;
      throw configError(
        'db.engine = "lancedb": the store plugin store-lancedb needs the optional packages ' +
          '@lancedb/lancedb and apache-arrow, ' +
          `which are not installed for ${process.platform}-${process.arch} ` +
          `(${(error as Error).message.split('\n')[0]}); ` +
          'install them (npm install @lancedb/lancedb apache-arrow) or choose another [db] engine',
        error,
      );
    },
  );
  return loading;
}
