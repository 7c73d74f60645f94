// The lease lock on S3 (ADR 0230) against a real S3-compatible server (s3rver): one holder at a time among
// contenders racing, a released lock is free at once, and a holder that stops renewing (killed) is taken
// over once its lease has run out, not before.
import assert from 'node:assert/strict';
import { after, before, it } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import * as sdk from '@aws-sdk/client-s3';
import { startS3Server, type S3TestServer } from '../../helpers/s3-server.ts';
import { openS3Client } from '../../../plugins/store-lancedb/object-store.ts';
import { S3Lease } from '../../../plugins/store-lancedb/s3-lease.ts';

let s3: S3TestServer;
let client: sdk.S3Client;
before(async () => {
  s3 = await startS3Server(['locks']);
  client = await openS3Client({ endpoint: s3.endpoint, aws_access_key_id: 'S3RVER', aws_secret_access_key: 'S3RVER' });
});
after(async () => {
  client.destroy();
  await s3.stop();
});

const lease = (name: string, ms: number) => new S3Lease(sdk, client, { bucket: 'locks', prefix: `${name}/` }, ms);

it('contenders racing for the lock: never two holders at once, and every one gets it in turn', async () => {
  let holders = 0;
  let most = 0;
  const done: number[] = [];
  await Promise.all(
    Array.from({ length: 4 }, async (_, i) => {
      const l = lease('race', 60_000);
      for (;;) {
        const attempt = await l.tryAcquire(`contender ${i}`);
        if (!attempt.held) {
          await sleep(10 + Math.random() * 80);
          continue;
        }
        most = Math.max(most, ++holders);
        await sleep(30);
        holders--;
        await attempt.release();
        done.push(i);
        return;
      }
    }),
  );
  assert.equal(most, 1, 'one holder at a time');
  assert.deepEqual(done.sort(), [0, 1, 2, 3]);
});

it('a held lock names its holder; released, it is free at once', async () => {
  const a = await lease('named', 60_000).tryAcquire('kbctx sync');
  assert.ok(a.held);
  const b = await lease('named', 60_000).tryAcquire('kbctx serve');
  assert.equal(b.held, false);
  assert.equal(!b.held && b.holder?.owner, 'kbctx sync');
  assert.equal(!b.held && b.holder?.pid, process.pid);
  await a.release();
  const c = await lease('named', 60_000).tryAcquire('kbctx serve');
  assert.ok(c.held, 'free after release');
  if (c.held) await c.release();
});

it('a holder that stops renewing is taken over after its lease, and a renewing one is not', async () => {
  // A claim written by hand and never renewed: what a kill -9'd holder leaves behind.
  await client.send(
    new sdk.PutObjectCommand({
      Bucket: 'locks',
      Key: 'dead/0-dead',
      Body: JSON.stringify({ owner: 'kbctx sync', pid: 1, host: 'gone', started_at: new Date().toISOString() }),
    }),
  );
  const early = await lease('dead', 3000).tryAcquire('next sync');
  assert.equal(early.held, false, 'within the lease the dead holder still counts');
  const alive = await lease('alive', 3000).tryAcquire('renewing holder');
  assert.ok(alive.held);
  let taken = false;
  const deadline = Date.now() + 30_000;
  while (!taken && Date.now() < deadline) {
    await sleep(500);
    const attempt = await lease('dead', 3000).tryAcquire('next sync');
    if (attempt.held) {
      taken = true;
      await attempt.release();
    }
  }
  assert.ok(taken, 'taken over once the lease ran out');
  await sleep(4500); // past the 3 s lease: only the renewals keep it
  const stolen = await lease('alive', 3000).tryAcquire('thief');
  assert.equal(stolen.held, false, 'a holder renewing every lease/3 keeps it past the lease');
  if (alive.held) await alive.release();
});
