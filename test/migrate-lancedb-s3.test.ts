// `kbctx migrate` to and from a LanceDB index in a bucket (s3://, ADR 0231) on a real S3-compatible server
// (s3rver): the copy answers as the original, a resync touches nothing, stats, doctor and export work on it, and it
// migrates back into SQLite. The keys come from the AWS_* variables, the endpoint from [db] storage_options.
import assert from 'node:assert/strict';
import { after, before, it } from 'node:test';
import { startS3Server, S3_TEST_ENV, type S3TestServer } from './helpers/s3-server.ts';
import { MigrateWorkspace } from './helpers/migrate-workspace.ts';
import type { SyncReportJson } from './helpers/workspace.ts';

const mw = new MigrateWorkspace();
const { ws } = mw;
let s3: S3TestServer;
const json = (text: string): Record<string, unknown> => JSON.parse(text) as Record<string, unknown>;
const env = S3_TEST_ENV;

before(async () => {
  s3 = await startS3Server(['kb']);
  await mw.setUp();
  const storage = `[db.storage_options]\nendpoint = "${s3.endpoint}"\nallow_http = "true"\n`;
  ws.config(mw.config('index.sqlite').replace('[embedding]', `${storage}[embedding]`));
  ws.write('bucket.toml', mw.config('s3://kb/copy').replace('[embedding]', `${storage}[embedding]`));
});
after(async () => {
  await mw.cleanup();
  await s3?.stop();
});

it(
  'kbctx migrate --to s3://…: the copy in the bucket answers, resyncs ' +
    'unchanged, and stats, doctor, export and migrate back work',
  async () => {
    const r = await ws.kbctx(['migrate', '--to', 's3://kb/copy', '--json'], { env });
    assert.equal(r.code, 0, r.stderr);
    const report = json(r.stdout);
    assert.deepEqual(
      [report['target'], report['documents'], report['chunks'], report['embeddings'], report['verified']],
      ['s3://kb/copy', 3, 3, 3, true],
    );
    assert.deepEqual(await mw.searches(['-c', 'bucket.toml'], env), await mw.searches(), 'the same answers');
    const again = await ws.kbctx(['migrate', '--to', 's3://kb/copy', '--json'], { env });
    assert.equal(again.code, 7, 'a target holding an index is refused without --force');
    const resync = await ws.kbctx(['-c', 'bucket.toml', 'sync', 'all', '--json'], { env });
    assert.equal(resync.code, 0, resync.stderr);
    const [docs] = json(resync.stdout)['connectors'] as SyncReportJson[];
    assert.deepEqual([docs?.upserted, docs?.deleted, docs?.unchanged], [0, 0, 3], 'fingerprints came along');
    const stats = await ws.kbctx(['-c', 'bucket.toml', 'stats', '--json'], { env });
    assert.equal(stats.code, 0, stats.stderr);
    const s = json(stats.stdout);
    assert.deepEqual([s['documents'], s['db_path']], [3, 's3://kb/copy']);
    assert.ok((s['db_size_bytes'] as number) > 0, 'the size of what the bucket holds');
    const doctor = await ws.kbctx(['-c', 'bucket.toml', 'doctor'], { env });
    assert.equal(doctor.code, 0, doctor.stdout + doctor.stderr);
    assert.match(doctor.stdout, /LanceDB integrity ok \(s3:\/\/kb\/copy\)/);
    const exported = await ws.kbctx(['-c', 'bucket.toml', 'export'], { env });
    assert.equal(exported.code, 0, exported.stderr);
    assert.equal(exported.stdout.trim().split('\n').length >= 3, true, 'one line per document at least');
    const home = await ws.kbctx(['-c', 'bucket.toml', 'migrate', '--to', 'home.sqlite', '--json'], { env });
    assert.equal(home.code, 0, home.stderr);
    assert.equal(json(home.stdout)['verified'], true, 'and back into SQLite');
    const self = await ws.kbctx(['-c', 'bucket.toml', 'migrate', '--to', 's3://kb/copy/'], { env });
    assert.equal(self.code, 2, 'the configured index itself is refused');
    assert.match(self.stderr, /--to names the configured index itself/);
  },
);

it('an s3:// path with the SQLite store is a config error naming the fix', async () => {
  ws.write('wrong.toml', '[db]\npath = "s3://kb/x"\nengine = "sqlite"\n');
  const r = await ws.kbctx(['-c', 'wrong.toml', 'stats'], { env });
  assert.notEqual(r.code, 0);
  assert.match(r.stderr, /db\.path = "s3:\/\/kb\/x" is object storage, which only the LanceDB store reads/);
});
