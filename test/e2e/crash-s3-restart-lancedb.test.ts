// The bucket's server stopped in the middle of a `kbctx sync` writing a LanceDB index on s3rver (issue 35), and
// started again on the same folder and port: the sync ends by itself (an error exit or a finished sync, never a
// hang), the table holds whole commits only (crash-safety checks), and the next sync completes it.
import assert from 'node:assert/strict';
import path from 'node:path';
import { after, it } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { checkConsistent, syncPastFirstCommit, writeCorpus } from '../helpers/lance-crash.ts';
import { startS3Server, S3_TEST_ENV } from '../helpers/s3-server.ts';
import { Workspace } from '../helpers/workspace.ts';

const FILES = 1200; // three commits of 500: the server goes away after the first
const ws = new Workspace('kbctx-crash-s3-restart-');
after(() => ws.cleanup());

// The timeout turns a sync hanging on the lost server into a failure, not a stuck suite.
it('a sync whose bucket server restarts mid-write ends, leaves a consistent table, and the next sync completes it', {
  timeout: 300_000,
}, async () => {
  let s3 = await startS3Server(['kb']);
  try {
    const storage = {
      endpoint: s3.endpoint,
      allow_http: 'true',
      aws_access_key_id: S3_TEST_ENV.AWS_ACCESS_KEY_ID,
      aws_secret_access_key: S3_TEST_ENV.AWS_SECRET_ACCESS_KEY,
      region: 'us-east-1',
    };
    ws.config(
      `[db]\npath = "s3://kb/restart"\nlock_lease = "2s"\n[db.storage_options]\nendpoint = "${s3.endpoint}"\n` +
        'allow_http = "true"\n[connectors.filesystem.docs]\nroot = "docs"\n',
    );
    writeCorpus(ws, FILES, 'r1');
    const first = await ws.kbctx(['sync', 'all'], { env: S3_TEST_ENV });
    assert.equal(first.code, 0, first.stderr);

    writeCorpus(ws, FILES, 'r2');
    const stamp = path.join(s3.dir, 'kb', 'restart', 'kb.lance', '_versions');
    const sync = await syncPastFirstCommit(ws, stamp, 50, S3_TEST_ENV);
    await s3.stop({ keep: true });
    await sleep(1000);
    s3 = await startS3Server(['kb'], { dir: s3.dir, port: s3.port });
    const code = await sync.exited;
    const during = await checkConsistent('s3://kb/restart', storage);
    assert.equal(during.documents, FILES);

    const resync = await ws.kbctx(['sync', 'all'], { env: S3_TEST_ENV });
    assert.equal(resync.code, 0, resync.stderr);
    const final = await checkConsistent('s3://kb/restart', storage);
    assert.deepEqual([final.documents, [...final.versions]], [FILES, ['r2']]);
    console.log(
      `s3rver restarted mid-sync: the sync exited with ${code}, versions ${[...during.versions].join('+')} in ` +
        `between; ` +
        `resync complete (${final.documents} documents, ${final.chunks} chunks)`,
    );
  } finally {
    await s3.stop();
  }
});
