// The optional native dependencies, imported on first use: a platform without a LanceDB build still
// installs kbctx, and selecting this store then fails with a config error naming the plugin.
import { configError } from '../../core/index.ts';
import { availableParallelism } from 'node:os';
import type * as Lancedb from '@lancedb/lancedb';
import type * as Arrow from 'apache-arrow';

export interface LanceModule {
  lancedb: typeof Lancedb;
  arrow: typeof Arrow;
}

let loading: Promise<LanceModule> | null = null;

export function loadLance(): Promise<LanceModule> {
  // 0.31 (the newest with builds for every platform on the registry) can hang building an index on a
  // machine with fewer than 2 CPU threads for Lance (lancedb#3568, fixed in 0.39): never fewer than 2.
  if (!(Number(process.env['LANCE_CPU_THREADS']) >= 2)) process.env['LANCE_CPU_THREADS'] = String(Math.max(2, availableParallelism()));
  loading ??= Promise.all([import('@lancedb/lancedb'), import('apache-arrow')]).then(([lancedb, arrow]) => ({ lancedb, arrow }), (error: unknown) => {
    loading = null;
    throw configError(
      `db.engine = "lancedb": the store plugin store-lancedb needs the optional packages @lancedb/lancedb and apache-arrow, ` +
        `which are not installed for ${process.platform}-${process.arch} (${(error as Error).message.split('\n')[0]}); ` +
        'install them (npm install @lancedb/lancedb apache-arrow) or choose another [db] engine',
      error,
    );
  });
  return loading;
}
