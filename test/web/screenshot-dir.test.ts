// `npm test` must not rewrite the tracked screenshots: only KBCTX_WRITE_SCREENSHOTS=1 gives a folder.
import assert from 'node:assert/strict';
import path from 'node:path';
import { it } from 'node:test';
import { REPO_ROOT } from '../helpers/workspace.ts';
import { screenshotDir } from './screenshot-dir.ts';

it('writes docs/screenshots only with KBCTX_WRITE_SCREENSHOTS=1', () => {
  assert.equal(screenshotDir({}), null);
  assert.equal(screenshotDir({ KBCTX_WRITE_SCREENSHOTS: '0' }), null);
  assert.equal(screenshotDir({ KBCTX_WRITE_SCREENSHOTS: '1' }), path.join(REPO_ROOT, 'docs/screenshots'));
});
