// Process entry of the `kbctx` command: the cli plugin's runner (plugins/cli) with the bundled plugin set, which
// is imported only when a command opens the index.
import { setBundledLoader } from '../core/app/bundled-set.ts';

setBundledLoader(() => import('./bundled.ts'));
await import('../plugins/cli/main.ts');
