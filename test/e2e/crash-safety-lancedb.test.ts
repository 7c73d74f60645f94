// Kill -9 a real `kbctx sync` writing into the LanceDB store (store-lancedb), round after round while
// every document changes, then check the table: every document's chunks match its body, each document
// wholly of one version, no duplicate rows, the keyword index holding exactly the chunks; a final
// resync converges to what a clean index holds. The kill points are spread over a whole sync's run (one sync is
// timed first), so kills land in start-up, analysis, inside a commit, between commits and in compaction.
// KBCTX_CRASH_ROUNDS sets the kills of both parts (20 for the figures in ADR 0125 and 0236; 3 in the suite). The
// same runs with the index in a bucket on s3rver (ADR 0231; fewer files: every commit goes through HTTP), where a
// killed sync's locks are leases the next one waits out.
import assert from 'node:assert/strict';
import { after, describe, it } from 'node:test';
import { checkConsistent, killDelay, syncKilledAfter, timedSync, writeCorpus } from '../helpers/lance-crash.ts';
import { startS3Server, S3_TEST_ENV } from '../helpers/s3-server.ts';
import { Workspace } from '../helpers/workspace.ts';

const ROUNDS = Number(process.env['KBCTX_CRASH_ROUNDS'] ?? 3);
const ws = new Workspace('kbctx-crash-lance-');
after(() => ws.cleanup());

interface CrashPart {
  files: number;
  /** The table's location and Lance storage options. */
  table: string;
  storage?: Record<string, string>;
  env?: NodeJS.ProcessEnv;
  /** Added to the timed sync's length after a kill: the lease the killed sync left, which the next one waits out. */
  leaseMs: number;
  prefix: string;
}

/**
 * A first sync, a timed one, ROUNDS killed ones with a check after each, then a resync: every state consistent, the end
 * complete. Returns the line the test prints.
 */
async function crashRounds(part: CrashPart): Promise<{ line: string; chunks: number }> {
  const { files, table, storage, env = {}, prefix } = part;
  // The timed sync changes every document, as the rounds' do (the one creating the table runs longer).
  writeCorpus(ws, files, `${prefix}-created`);
  const created = await ws.kbctx(['sync', 'all'], { env });
  assert.equal(created.code, 0, created.stderr);
  writeCorpus(ws, files, `${prefix}0`);
  const timed = await timedSync(ws, env);
  assert.equal(timed.code, 0, 'the untouched sync succeeds');
  // ROUNDS kills: a sync that ends before its kill point (a loaded machine's syncs vary 2–3×) makes its own length
  // the span the next kill points are spread over.
  let killed = 0;
  let partial = 0;
  let attempts = 0;
  let version = `${prefix}0`;
  let lastKilled = false;
  let spanMs = timed.ms;
  for (; killed < ROUNDS && attempts < 2 * ROUNDS; attempts++) {
    version = `${prefix}${attempts + 1}`;
    writeCorpus(ws, files, version);
    // A sync after a killed one first waits out the lease that one left.
    const leaseWait = lastKilled ? part.leaseMs : 0;
    const sync = await syncKilledAfter(ws, killDelay(killed + 1, spanMs + leaseWait), env);
    lastKilled = sync.killed;
    if (sync.killed) killed++;
    else spanMs = Math.max(100, sync.ms - leaseWait);
    const state = await checkConsistent(table, storage);
    assert.ok(state.documents <= files);
    if (state.versions.size > 1 || !state.versions.has(version)) partial++;
  }
  assert.equal(killed, ROUNDS, `${killed} of ${attempts} syncs killed`);
  const resync = await ws.kbctx(['sync', 'all'], { env });
  assert.equal(resync.code, 0, resync.stderr);
  const final = await checkConsistent(table, storage);
  assert.deepEqual([final.documents, [...final.versions]], [files, [version]]);
  return {
    chunks: final.chunks,
    line:
      `${killed} of ${attempts} syncs killed (spread over ${Math.round(timed.ms)} ms at first + ${part.leaseMs} ` +
      `ms after a kill), ` +
      `${partial} leaving the table short of their version, every state consistent; resync complete ` +
      `(${final.documents} documents, ${final.chunks} chunks)`,
  };
}

describe('crash safety (LanceDB)', () => {
  it(
    `${ROUNDS} kills during syncs that change every document ` + `leave a consistent table that a resync completes`,
    async () => {
      ws.config('[db]\nengine = "lancedb"\npath = "index.lance"\n[connectors.filesystem.docs]\nroot = "docs"\n');
      const { line, chunks } = await crashRounds({
        files: 1500,
        table: ws.path('index.lance'),
        leaseMs: 0,
        prefix: 'v',
      });

      ws.write(
        'clean.toml',
        '[db]\nengine = "lancedb"\npath = "clean.lance"\n[connectors.filesystem.docs]\nroot = "docs"\n',
      );
      const clean = await ws.kbctx(['-c', 'clean.toml', 'sync', 'all']);
      assert.equal(clean.code, 0, clean.stderr);
      assert.equal((await checkConsistent(ws.path('clean.lance'))).chunks, chunks);
      console.log(`LanceDB crash test: ${line}`);
    },
  );

  it(
    'the same in a bucket on s3rver: kills mid-sync leave a ' + 'consistent table; the next sync takes the locks over',
    async () => {
      const s3 = await startS3Server(['kb']);
      try {
        ws.remove('docs');
        ws.config(
          `[db]\npath = "s3://kb/crash"\nlock_lease = "2s"\n[db.storage_options]\nendpoint = "${s3.endpoint}"\n` +
            `allow_http = "true"\n` +
            '[connectors.filesystem.docs]\nroot = "docs"\n',
        );
        const { line } = await crashRounds({
          files: 600,
          table: 's3://kb/crash',
          storage: { endpoint: s3.endpoint, allow_http: 'true', ...lowerKeys(S3_TEST_ENV) },
          env: S3_TEST_ENV,
          leaseMs: 2000,
          prefix: 's',
        });
        console.log(`LanceDB in s3rver crash test: ${line}`);
      } finally {
        await s3.stop();
      }
    },
  );
});

/** The AWS_* keys as storage options (what Lance reads from the environment in a spawned kbctx). */
function lowerKeys(env: Record<string, string>): Record<string, string> {
  return {
    aws_access_key_id: env['AWS_ACCESS_KEY_ID'] ?? '',
    aws_secret_access_key: env['AWS_SECRET_ACCESS_KEY'] ?? '',
    region: env['AWS_REGION'] ?? 'us-east-1',
  };
}
