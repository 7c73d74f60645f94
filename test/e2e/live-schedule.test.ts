// A schedule with a real server process: a git connector with `sync_interval` picks up a commit made
// after the server started, and reports its next run in GET /sync/status.
import assert from 'node:assert/strict';
import { after, it } from 'node:test';
import { commit, initRepo } from '../helpers/git-repo.ts';
import { eventually, spawnLiveServer } from '../helpers/live-server.ts';
import { Workspace } from '../helpers/workspace.ts';

const ws = new Workspace('kbctx-live-git-');
after(() => ws.cleanup());

it('a git connector on a schedule picks up a new commit', async () => {
  const repo = initRepo(ws.path('remote'));
  commit(repo, { 'docs/setup.md': '# Setup\n\nInstall the toolchain first.\n' }, 'first', '2024-01-01T00:00:00Z');
  ws.config(
    `[connectors.git.kb]\nurl = "${repo}"\nroot = "docs"\n` +
      `shallow = false\nsync_interval = "1s"\n\n[sync]\ninterval = "off"\n`,
  );
  const server = await spawnLiveServer(ws);
  try {
    await server.waitForLog(/sync git:kb \(start\): fetched 1, upserted 1/);
    const status = (await (await fetch(`${server.url}/sync/status`)).json()) as {
      connectors: { connector: string; next_run_at: string | null }[];
    };
    assert.equal(status.connectors[0]?.connector, 'git:kb');
    assert.ok(status.connectors[0]?.next_run_at, 'a scheduled connector reports its next run');

    commit(
      repo,
      { 'docs/rollback.md': '# Rollback\n\nRevert the deploy with the pelican switch.\n' },
      'second',
      '2024-01-02T00:00:00Z',
    );
    await server.waitForLog(/sync git:kb \(schedule\): fetched 2, upserted 1/);
    const hits = await eventually(async () => {
      const found = await server.search('pelican');
      return found.length > 0 ? found : undefined;
    }, 'the new commit in search');
    assert.equal(hits[0]?.source_id, 'docs/rollback.md');
  } finally {
    assert.equal(await server.stop(), 0);
  }
});

it('[server] watch = "poll" says so in the log and picks up changes by rescanning', async () => {
  const pollWs = new Workspace('kbctx-live-poll-');
  try {
    pollWs.write('docs/a.md', '# Alpha\n\nThe first note.\n');
    pollWs.config(
      '[server]\nwatch = "poll"\n\n[connectors.filesystem.docs]\nroot = "docs"\n\n[sync]\ninterval = "off"\n',
    );
    const server = await spawnLiveServer(pollWs);
    try {
      await server.waitForLog(/polling: an incremental rescan every 5 s/);
      await server.waitForLog(/sync filesystem:docs \(start\): fetched 1/);
      pollWs.write('docs/b.md', '# Beta\n\nA kingfisher dives.\n');
      await server.waitForLog(/sync filesystem:docs \(poll\): fetched 2, upserted 1/);
      assert.equal((await server.search('kingfisher'))[0]?.source_id, 'b.md');
      assert.doesNotMatch(
        server.log(),
        /\(poll\): .*upserted 0, deleted 0/,
        'polls that change nothing are not logged',
      );
    } finally {
      assert.equal(await server.stop(), 0);
    }
  } finally {
    pollWs.cleanup();
  }
});
