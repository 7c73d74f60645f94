// Where the web page tests write their screenshots: docs/screenshots (tracked) only when asked with
// KBCTX_WRITE_SCREENSHOTS=1, so `npm test` leaves the working tree as it was; null: keep them in memory.
import path from 'node:path';
import { REPO_ROOT } from '../helpers/workspace.ts';

export function screenshotDir(env: NodeJS.ProcessEnv): string | null {
  return env['KBCTX_WRITE_SCREENSHOTS'] === '1' ? path.join(REPO_ROOT, 'docs/screenshots') : null;
}
