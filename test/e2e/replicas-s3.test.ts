// Two `kbctx serve` replicas reading one LanceDB index in a bucket (issue 35, ADR 0230/0231) on a real
// S3-compatible server (s3rver on 127.0.0.1), written by `kbctx sync` in a third process: both replicas see the new
// documents soon after the sync (polled; the figure is printed, not asserted); a sync killed with -9 while it holds
// its locks is followed by one that waits out the lease and succeeds, and the index is consistent (doctor); the
// bucket's server stopped and started again on the same folder and port, the replicas answer again.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { after, before, it } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { ListObjectsV2Command, S3Client } from '@aws-sdk/client-s3';
import { eventually, searchRaw, spawnLiveServer, type LiveServer } from '../helpers/live-server.ts';
import { startS3Server, S3_TEST_ENV, type S3TestServer } from '../helpers/s3-server.ts';
import { KBCTX_BIN, Workspace } from '../helpers/workspace.ts';

const ws = new Workspace('kbctx-replicas-s3-');
let s3: S3TestServer;
const servers: LiveServer[] = [];
before(async () => {
  s3 = await startS3Server(['kb']);
});
after(async () => {
  for (const s of servers) await s.stop();
  await s3?.stop();
  ws.cleanup();
});

const db = (endpoint: string): string =>
  `[db]\npath = "s3://kb/team/index"\nlock_lease = "3s"\n` +
  `[db.storage_options]\nendpoint = "${endpoint}"\nallow_http = "true"\n`;
/** The AWS_* variables carry the keys (as on a real deployment): storage_options only names the endpoint. */
const env = (config: string): NodeJS.ProcessEnv => ({ ...S3_TEST_ENV, KBCTX_CONFIG: ws.path(config) });

const finds = (server: LiveServer, query: string, sourceId: string, timeoutMs = 30_000) =>
  eventually(
    async () => {
      const r = await searchRaw(server, query).catch(() => undefined);
      return r?.status === 200 && r.body.results?.some((h) => h.source_id === sourceId) ? r : undefined;
    },
    `${sourceId} found by '${query}' on ${server.url}`,
    timeoutMs,
    20,
  );

function kbctx(args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [KBCTX_BIN, ...args], {
      cwd: ws.dir,
      env: { ...process.env, ...env('writer.toml') },
    });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (d: string) => (stdout += d));
    child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

async function lockClaims(): Promise<string[]> {
  const client = new S3Client({
    endpoint: s3.endpoint,
    region: 'us-east-1',
    forcePathStyle: true,
    credentials: { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' },
  });
  try {
    const page = await client.send(new ListObjectsV2Command({ Bucket: 'kb', Prefix: 'team/index/_kbctx/locks/' }));
    return (page.Contents ?? []).map((o) => o.Key!);
  } finally {
    client.destroy();
  }
}

const started = performance.now();
const phase = (what: string): void =>
  console.log(`# ${what} at ${((performance.now() - started) / 1000).toFixed(1)} s`);

it(
  'replicas over a bucket see a sync from a third process, ' + 'survive a killed writer and a restarted server',
  async () => {
    ws.write('docs/alpha.md', '# Alpha\n\nThe osprey nests by the estuary.\n');
    const connectors = '\n[connectors.filesystem.docs]\nroot = "docs"\n\n[sync]\ninterval = "off"\n';
    ws.write('writer.toml', db(s3.endpoint) + connectors);
    ws.write('replica.toml', `${db(s3.endpoint)}\n[sync]\ninterval = "off"\n`);
    const first = await kbctx(['sync', 'all', '--json']);
    assert.equal(first.code, 0, first.stderr);

    // Two replicas with no connectors: they only serve what the syncs write.
    for (let i = 0; i < 2; i++) servers.push(await spawnLiveServer(ws, ['--no-watch'], env('replica.toml')));
    const [a, b] = servers as [LiveServer, LiveServer];
    for (const server of [a, b]) await finds(server, 'osprey', 'alpha.md');

    ws.write('docs/beta.md', '# Beta\n\nA kingfisher dives for minnows.\n');
    const sync = await kbctx(['sync', 'all', '--json']);
    assert.equal(sync.code, 0, sync.stderr);
    const synced = performance.now();
    const seen = await Promise.all(
      [a, b].map(async (server) => {
        await finds(server, 'kingfisher', 'beta.md');
        return Math.round(performance.now() - synced);
      }),
    );
    console.log(`# replicas found the new document ${seen.join(' ms and ')} ms after the sync process exited`);

    phase('replicas saw the sync');
    // A sync killed with -9 once it holds its connector's lock (a claim in the bucket): the next one waits out the
    // lease.
    for (let i = 0; i < 400; i++)
      ws.write(`docs/bulk-${i}.md`, `# Bulk ${i}\n\nheron number ${i} waits in the reeds.\n`);
    const doomed = spawn(process.execPath, [KBCTX_BIN, 'sync', 'all'], {
      cwd: ws.dir,
      stdio: 'ignore',
      env: { ...process.env, ...env('writer.toml') },
    });
    const doomedExit = new Promise((resolve) => doomed.on('exit', (code, signal) => resolve(signal ?? code)));
    await eventually(async () => ((await lockClaims()).length > 0 ? true : undefined), 'the sync takes its lock');
    await sleep(300);
    doomed.kill('SIGKILL');
    assert.equal(await doomedExit, 'SIGKILL');
    assert.ok((await lockClaims()).length > 0, 'the killed sync left its lock behind');
    phase('the sync was killed');
    const after = await kbctx(['sync', 'all', '--json']);
    phase('the next sync finished');
    assert.equal(after.code, 0, after.stderr);
    const [report] = (JSON.parse(after.stdout) as { connectors: { upserted: number; unchanged: number }[] }).connectors;
    assert.equal((report?.upserted ?? 0) + (report?.unchanged ?? 0), 402, 'every document is in the index');
    const doctor = await kbctx(['doctor', '--json']);
    assert.equal(doctor.code, 0, doctor.stdout + doctor.stderr);
    const stats = await kbctx(['stats', '--json']);
    assert.equal((JSON.parse(stats.stdout) as { documents: number }).documents, 402, stats.stderr);
    for (const server of [a, b]) await finds(server, 'heron number 399', 'bulk-399.md');

    phase('doctor, stats and the replicas checked the index');
    // The bucket's server stopped and started again where it was: the replicas answer, and see the next sync.
    await s3.stop({ keep: true });
    s3 = await startS3Server(['kb'], { dir: s3.dir, port: s3.port });
    for (const server of [a, b]) await finds(server, 'osprey', 'alpha.md', 120_000);
    phase('the replicas answered after the restart');
    ws.write('docs/gamma.md', '# Gamma\n\nA grebe carries its chicks.\n');
    const again = await kbctx(['sync', 'all', '--json']);
    assert.equal(again.code, 0, again.stderr);
    for (const server of [a, b]) await finds(server, 'grebe', 'gamma.md');
    assert.deepEqual(await Promise.all(servers.splice(0).map((s) => s.stop())), [0, 0]);
  },
);
