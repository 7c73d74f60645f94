// Git sync cannot hang (issue 10, defect 6): a shallow `file://` source syncs in full within a minute
// (no partial clone whose lazy fetches chain forever), and a remote that never answers is stopped by
// the per-process time-out, killing git's whole process group, with a clear message.
import assert from 'node:assert/strict';
import { createServer, type Socket } from 'node:net';
import { after, describe, it } from 'node:test';
import { pathToFileURL } from 'node:url';
import { partialCloneFilter } from '../plugins/connector-git/git-cache.ts';
import { commit, git, initRepo } from './helpers/git-repo.ts';
import { Workspace } from './helpers/workspace.ts';

describe('git connector against hostile sources', () => {
  const ws = new Workspace('kbctx-git-hard-');
  after(() => ws.cleanup());

  it('syncs a shallow file:// clone (git clone --depth 1) as its source, within a minute', {
    timeout: 60_000,
  }, async () => {
    const repo = initRepo(ws.path('origin'));
    commit(repo, { 'a.md': '# A\n\nfirst\n', 'b.md': '# B\n\nbee\n' }, 'one', '2021-01-01T00:00:00Z');
    commit(repo, { 'a.md': '# A\n\nsecond\n', 'c.md': '# C\n\nsee\n' }, 'two', '2022-01-01T00:00:00Z');
    git(ws.dir, ['clone', '--quiet', '--depth', '1', pathToFileURL(repo).href, ws.path('shallow')]);
    ws.config(`[connectors.git.shallow]\nurl = "${pathToFileURL(ws.path('shallow')).href}"\nshallow = true\n`);
    const { code, reports, stderr } = await ws.syncJson('git:shallow');
    assert.equal(code, 0, stderr);
    assert.equal(reports[0]?.upserted, 3);
    const again = await ws.syncJson('git:shallow');
    assert.equal(again.code, 0, again.stderr);
    assert.equal(again.reports[0]?.unchanged, 3);
  });

  it('stops a git process whose remote never answers after timeout_secs, with a clear message', {
    timeout: 60_000,
  }, async () => {
    const sockets: Socket[] = [];
    let closed = 0;
    const server = createServer((socket) => {
      sockets.push(socket);
      socket.resume(); // read (and drop) what git sends, so its hang-up is seen
      socket.on('close', () => closed++);
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as { port: number };
    try {
      ws.config(`[connectors.git.silent]\nurl = "git://127.0.0.1:${port}/repo.git"\ntimeout_secs = 1\n`);
      const { code, reports } = await ws.syncJson('git:silent');
      assert.notEqual(code, 0);
      assert.match(reports[0]?.failure?.message ?? '', /git clone did not finish within 1 s and was stopped/);
      assert.ok(sockets.length >= 1, 'git connected to the silent remote');
      // The killed git closes its connection; the sync's exit means every socket was closed by then or soon after.
      await new Promise<void>((resolve) =>
        closed === sockets.length ? resolve() : sockets.at(-1)!.once('close', () => resolve()),
      );
      assert.equal(closed, sockets.length);
    } finally {
      for (const s of sockets) s.destroy();
      await new Promise((resolve) => server.close(resolve));
    }
  });
});

describe('partialCloneFilter', () => {
  it('uses a blobless clone for network remotes only', () => {
    assert.deepEqual(partialCloneFilter('https://github.com/acme/docs.git', true), ['--filter=blob:none']);
    assert.deepEqual(partialCloneFilter('git@github.com:acme/docs.git', true), ['--filter=blob:none']);
    assert.deepEqual(partialCloneFilter('ssh://git@host/acme/docs.git', true), ['--filter=blob:none']);
    assert.deepEqual(partialCloneFilter('https://github.com/acme/docs.git', false), []);
    for (const local of ['file:///srv/repo', 'FILE:///srv/repo', '/srv/repo', 'repo', './repo', 'C:/repos/x'])
      assert.deepEqual(partialCloneFilter(local, true), [], local);
  });
});
