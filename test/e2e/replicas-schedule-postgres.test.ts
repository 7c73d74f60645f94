// Schedules across replicas (issue 16): two `kbctx serve` processes over one real PostgreSQL, both with
// the same git connector on a 2 s schedule. The connector's advisory lock keeps them from syncing it at
// once, and a scheduled run that finds it synced by the other replica within 90% of the interval is
// skipped (and says so): the schedule runs once per interval, not once per replica. A new commit is
// still picked up and reaches both replicas.
import assert from 'node:assert/strict';
import { after, before, it } from 'node:test';
import { commit, initRepo } from '../helpers/git-repo.ts';
import { eventually, type LiveServer } from '../helpers/live-server.ts';
import { Replicas } from '../helpers/replicas.ts';

const replicas = new Replicas('kbctx-replica-schedule-');
const { ws } = replicas;
before(() => replicas.start());
after(() => replicas.close());

it('replicas share one schedule: a run another replica just did is skipped, new commits still arrive', async () => {
  const url = await replicas.pg.createDatabase();
  const repo = initRepo(ws.path('remote'));
  commit(repo, { 'docs/setup.md': '# Setup\n\nInstall the toolchain first.\n' }, 'first', '2024-01-01T00:00:00Z');
  const replica = (name: string): Promise<LiveServer> =>
    replicas.spawn(
      name,
      `[db]\npath = "${name}/kbctx.sqlite"\nurl = "${url}"\n\n[connectors.git.kb]\nurl = "${repo}"\nroot = ` +
        `"docs"\nshallow = false\nsync_interval = "2s"\n\n[sync]\ninterval = "off"\n`,
    );
  const a = await replica('a');
  const b = await replica('b');
  const logs = (): string => a.log() + b.log();
  const count = (pattern: RegExp): number => (logs().match(new RegExp(pattern.source, 'g')) ?? []).length;

  await eventually(
    async () => (count(/sync git:kb \(schedule\): up to date, skipped: synced \d+ s ago/) >= 2 ? true : undefined),
    'two skipped scheduled runs',
    60_000,
  );
  const ran = count(/sync git:kb \(schedule\): fetched/);
  const skipped = count(/sync git:kb \(schedule\): up to date, skipped/);
  console.log(`# scheduled runs so far across both replicas: ${ran} ran, ${skipped} skipped as up to date`);
  assert.ok(ran >= 1, 'somebody runs the schedule');

  commit(
    repo,
    { 'docs/rollback.md': '# Rollback\n\nRevert the deploy with the pelican switch.\n' },
    'second',
    '2024-01-02T00:00:00Z',
  );
  for (const server of [a, b]) {
    await eventually(
      async () => ((await server.search('pelican')).some((h) => h.source_id === 'docs/rollback.md') ? true : undefined),
      `the new commit on ${server.url}`,
    );
  }
  // The other replica can find the document (PostgreSQL's feed) before the writer prints its run line.
  await eventually(
    async () => (count(/\((schedule|retry)\): fetched 2, upserted 1/) >= 1 ? true : undefined),
    'the run line of the write',
  );
  assert.equal(
    count(/\((schedule|retry)\): fetched 2, upserted 1/),
    1,
    'the new commit was written once, by one replica',
  );
  assert.deepEqual(await replicas.stopAll(), [0, 0]);
});
