// End-to-end: the real CLI syncing real git repositories built with the system git — commit times,
// renames, deletes, a subfolder root, branches, a bare remote over file://, changed url/branch, errors.
import assert from 'node:assert/strict';
import { after, describe, it } from 'node:test';
import { pathToFileURL } from 'node:url';
import { bareClone, commit, git, initRepo } from './helpers/git-repo.ts';
import { Workspace } from './helpers/workspace.ts';

interface WireDoc {
  source: string;
  source_id: string;
  source_url: string;
  title: string;
  body: string;
  updated_at: string;
}

const T1 = '2021-03-04T05:06:07Z';
const T2 = '2022-08-09T10:11:12Z';
const T3 = '2023-01-02T03:04:05Z';

async function docs(ws: Workspace, source: string): Promise<Map<string, WireDoc>> {
  const r = await ws.kbctx(['export']);
  const all = (JSON.parse(r.stdout) as { documents: WireDoc[] }).documents;
  return new Map(all.filter((d) => d.source === source).map((d) => [d.source_id, d]));
}

describe('git connector: a local repository', () => {
  const ws = new Workspace();
  after(() => ws.cleanup());
  const repo = initRepo(ws.path('repo'));
  commit(
    repo,
    { 'docs/a.md': '# Alpha\n\nfirst alpha\n', 'docs/b.md': '# Beta\n\nbeta text\n', 'top.md': '# Top\n' },
    'one',
    T1,
  );
  commit(repo, { 'docs/a.md': '# Alpha\n\nsecond alpha\n' }, 'two', T2);
  ws.config('[connectors.git.local]\nurl = "repo"\n\n[connectors.git.sub]\nurl = "repo"\nroot = "docs"\n');

  it("indexes files with their last commit time and a file:// link into the user's repository", async () => {
    const { code, reports } = await ws.syncJson('git');
    assert.equal(code, 0, JSON.stringify(reports));
    assert.deepEqual(
      reports.map((r) => [r.connector, r.upserted]),
      [
        ['git:local', 3],
        ['git:sub', 2],
      ],
    );
    const local = await docs(ws, 'git:local');
    assert.equal(local.get('docs/a.md')?.updated_at, new Date(T2).toISOString());
    assert.equal(local.get('docs/b.md')?.updated_at, new Date(T1).toISOString());
    assert.match(local.get('docs/a.md')?.body ?? '', /second alpha/);
    assert.equal(
      local.get('docs/a.md')?.source_url,
      pathToFileURL(ws.path('repo', 'docs', 'a.md')).href,
      "not kbctx's private clone",
    );
    const sub = await docs(ws, 'git:sub');
    assert.deepEqual([...sub.keys()].sort(), ['docs/a.md', 'docs/b.md']);
  });

  it('resyncs without change as all unchanged', async () => {
    const { reports } = await ws.syncJson('git:local');
    assert.deepEqual([reports[0]?.upserted, reports[0]?.unchanged, reports[0]?.deleted], [0, 3, 0]);
  });

  it('follows renames, edits and deletes', async () => {
    git(repo, ['mv', 'docs/b.md', 'docs/beta.md']);
    commit(repo, { 'top.md': null, 'docs/a.md': '# Alpha\n\nthird alpha\n' }, 'three', T3);
    const { reports } = await ws.syncJson('git:local');
    assert.deepEqual([reports[0]?.upserted, reports[0]?.deleted, reports[0]?.unchanged], [2, 2, 0]);
    const local = await docs(ws, 'git:local');
    assert.deepEqual([...local.keys()].sort(), ['docs/a.md', 'docs/beta.md']);
    assert.equal(local.get('docs/beta.md')?.updated_at, new Date(T3).toISOString());
    assert.match(local.get('docs/a.md')?.body ?? '', /third alpha/);
  });
});

describe('git connector: a bare remote over file://, branches and history rewrites', () => {
  const ws = new Workspace();
  after(() => ws.cleanup());
  const work = initRepo(ws.path('work'));
  commit(work, { 'kb/intro.md': '# Intro\n\nmain intro\n', 'src/code.md': '# Code\n' }, 'main one', T1);
  git(work, ['checkout', '--quiet', '-b', 'dev']);
  commit(work, { 'kb/dev-only.md': '# Dev\n\ndev notes\n' }, 'dev one', T2);
  const remote = bareClone(work, ws.path('remote.git'));
  git(work, ['remote', 'add', 'origin', remote]);
  const url = pathToFileURL(remote).href;
  const config = (branch: string, remoteUrl = url): void =>
    ws.config(`[connectors.git.kb]\nurl = "${remoteUrl}"\nbranch = "${branch}"\nroot = "kb"\n`);

  it('clones the configured branch under the root', async () => {
    config('dev');
    const { code } = await ws.syncJson('git:kb');
    assert.equal(code, 0);
    const kb = await docs(ws, 'git:kb');
    assert.deepEqual([...kb.keys()].sort(), ['kb/dev-only.md', 'kb/intro.md']);
    assert.equal(
      kb.get('kb/intro.md')?.source_url,
      pathToFileURL(`${remote}/kb/intro.md`).href,
      'a file:// remote links into that repository',
    );
  });

  it('fetches new commits and survives a force-push', async () => {
    commit(work, { 'kb/more.md': '# More\n' }, 'dev two', T3);
    git(work, ['push', '--quiet', 'origin', 'dev']);
    assert.equal((await ws.syncJson('git:kb')).reports[0]?.upserted, 1);
    git(work, ['reset', '--quiet', '--hard', 'HEAD~2']);
    commit(work, { 'kb/rewritten.md': '# Rewritten\n' }, 'rewrite', T3);
    git(work, ['push', '--quiet', '--force', 'origin', 'dev']);
    const { reports } = await ws.syncJson('git:kb');
    assert.deepEqual([reports[0]?.upserted, reports[0]?.deleted], [1, 2]);
    assert.deepEqual([...(await docs(ws, 'git:kb')).keys()].sort(), ['kb/intro.md', 'kb/rewritten.md']);
  });

  it('switches to another branch when the config changes', async () => {
    config('main');
    const { reports } = await ws.syncJson('git:kb');
    assert.equal(reports[0]?.failure, null);
    assert.deepEqual([...(await docs(ws, 'git:kb')).keys()], ['kb/intro.md']);
  });

  it('follows a changed url', async () => {
    const other = initRepo(ws.path('other'));
    commit(other, { 'kb/elsewhere.md': '# Elsewhere\n' }, 'other', T1);
    config('main', other);
    const { reports } = await ws.syncJson('git:kb');
    assert.deepEqual([reports[0]?.upserted, reports[0]?.deleted], [1, 1]);
    config('main');
  });

  it('keeps exact commit times in a blobless (shallow) clone', async () => {
    git(remote, ['config', 'uploadpack.allowFilter', 'true']);
    ws.config(`[connectors.git.lean]\nurl = "${url}"\nbranch = "main"\nshallow = true\n`);
    const { code } = await ws.syncJson('git:lean');
    assert.equal(code, 0);
    const lean = await docs(ws, 'git:lean');
    assert.equal(lean.get('kb/intro.md')?.updated_at, new Date(T1).toISOString());
  });

  it('reports a missing branch or root as a failed connector, while the others sync', async () => {
    ws.write('notes/n.md', '# Note\n');
    ws.config(
      `[connectors.git.nobranch]\nurl = "${url}"\nbranch = "nope"\n\n[connectors.git.noroot]\nurl = "${url}"\n` +
        `root = "missing"\n\n` +
        '[connectors.filesystem.notes]\nroot = "notes"\n',
    );
    const { code, reports } = await ws.syncJson('all');
    assert.equal(code, 1);
    const by = new Map(reports.map((r) => [r.connector, r]));
    assert.match(
      by.get('git:nobranch')?.failure?.message ?? '',
      /branch 'nope' does not exist.*connectors\.git\.nobranch\.branch/,
    );
    assert.match(by.get('git:noroot')?.failure?.message ?? '', /root 'missing'.*connectors\.git\.noroot\.root/);
    assert.equal(by.get('filesystem:notes')?.upserted, 1);
  });
});
