// A PostgreSQL replica whose PostgreSQL stops in the middle of its sync (issue 21, item 2): the sync
// is reported as failed, the process stays up answering 503 `unavailable` (and /health 200), and once
// PostgreSQL is back it recovers by itself. "Mid-sync" is made exact with a trigger in the test's
// database: the replica's write of its sync state (after its documents, before its commit and the
// post-sync compaction) waits on an advisory lock the test holds, and PostgreSQL is stopped then.
import assert from 'node:assert/strict';
import { after, before, it } from 'node:test';
import pg from 'pg';
import { eventually, searchRaw } from '../helpers/live-server.ts';
import { Replicas } from '../helpers/replicas.ts';

const GATE = 2_112_021;
const replicas = new Replicas('kbctx-pg-mid-sync-');
const { ws } = replicas;
before(() => replicas.start());
after(() => replicas.close());

async function withClient<T>(url: string, fn: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await fn(client);
  } finally {
    await client.end().catch(() => undefined);
  }
}

it(
  'a replica whose PostgreSQL stops mid-sync reports the ' + 'failed sync, answers 503, and recovers by itself',
  async () => {
    const { pg: server } = replicas;
    const url = await server.createDatabase();
    ws.write('docs/alpha.md', '# Alpha\n\nThe osprey nests by the estuary.\n');
    const a = await replicas.spawn(
      'a',
      `[db]\npath = "a/kbctx.sqlite"\nurl = "${url}"\n\n` +
        `[connectors.filesystem.docs]\nroot = "docs"\n\n[sync]\ninterval = "off"\n`,
      ['--no-watch'],
    );
    await a.waitForLog(/sync filesystem:docs \(start\): fetched 1, upserted 1/);

    await withClient(url, (c) =>
      c.query(`
    CREATE FUNCTION kbctx_test_gate() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN PERFORM pg_advisory_lock(${GATE}); PERFORM pg_advisory_unlock(${GATE}); RETURN NEW; END $$;
    CREATE TRIGGER kbctx_test_gate BEFORE INSERT OR UPDATE
      ON kbctx_sync_state FOR EACH ROW EXECUTE FUNCTION kbctx_test_gate();`),
    );
    const holder = new pg.Client({ connectionString: url });
    holder.on('error', () => undefined); // the shutdown below ends this session too
    await holder.connect();
    await holder.query(`SELECT pg_advisory_lock(${GATE})`);

    ws.write('docs/beta.md', '# Beta\n\nA kingfisher dives for minnows.\n');
    const mark = a.log().length;
    assert.equal(await postSync(a.url), 200);
    // The sync has written beta.md and now waits at the gate, inside its open write group.
    await eventually(
      () =>
        withClient(url, async (c) =>
          (await c.query(`SELECT 1 FROM pg_locks WHERE locktype = 'advisory' AND objid = ${GATE} AND NOT granted`))
            .rowCount
            ? true
            : undefined,
        ),
      'the sync waiting at the gate',
    );
    await server.down();

    await a.waitForLog(/sync filesystem:docs \(request\): failed .*unavailable/, { from: mark });
    const down = await eventually(async () => {
      const r = await searchRaw(a, 'osprey');
      return r.status === 503 ? r : undefined;
    }, '503 while PostgreSQL is down');
    assert.equal(down.body.error?.code, 'unavailable');
    assert.equal((await fetch(`${a.url}/health`)).status, 200, 'the replica process is alive');

    await server.start();
    await withClient(url, (c) =>
      c.query('DROP TRIGGER kbctx_test_gate ON kbctx_sync_state; DROP FUNCTION kbctx_test_gate()'),
    );
    await eventually(
      async () => ((await searchRaw(a, 'osprey')).status === 200 ? true : undefined),
      'search answers again',
    );
    const upMark = a.log().length;
    assert.equal(await postSync(a.url), 200);
    // Whether beta.md's write committed before PostgreSQL's shutdown ended the session is a race in
    // PostgreSQL (the holder's session ends first, releasing the gate): either the recovery sync writes
    // it now (upserted 1) or it finds it already there (unchanged 2). Both keep it, which is the point.
    await a.waitForLog(/sync filesystem:docs \(request\): fetched 2, (upserted 1|upserted 0, deleted 0, unchanged 2)/, {
      from: upMark,
    });
    await eventually(async () => {
      const r = await searchRaw(a, 'kingfisher');
      return r.body.results?.some((h) => h.source_id === 'beta.md') ? r : undefined;
    }, 'beta.md searchable after the recovery');
    assert.doesNotMatch(a.log(), /unhandled|uncaught/i);
    assert.deepEqual(await replicas.stopAll(), [0]);
  },
);

/** `POST /sync/filesystem:docs` on the replica at `base`: the answer's status. */
async function postSync(base: string): Promise<number> {
  const body = '{}';
  return (
    await fetch(`${base}/sync/filesystem:docs`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body,
    })
  ).status;
}
