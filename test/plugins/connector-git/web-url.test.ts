// Forge web URLs from remote URLs (https and ssh forms), local-path detection.
import assert from 'node:assert/strict';
import { it } from 'node:test';
import { isLocalGitPath, webUrlBuilder } from '../../../plugins/connector-git/web-url.ts';

it('builds GitHub, GitLab and Bitbucket links from https and ssh remotes', () => {
  const cases: [string, string, string][] = [
    ['https://github.com/acme/docs.git', 'main', 'https://github.com/acme/docs/blob/main/guide/a b.md'],
    ['git@github.com:acme/docs.git', 'main', 'https://github.com/acme/docs/blob/main/guide/a b.md'],
    ['ssh://git@github.com/acme/docs', 'main', 'https://github.com/acme/docs/blob/main/guide/a b.md'],
    [
      'https://gitlab.com/group/sub/docs.git',
      'release/2.0',
      'https://gitlab.com/group/sub/docs/-/blob/release/2.0/guide/a b.md',
    ],
    ['git@gitlab.example.org:group/docs.git', 'main', 'https://gitlab.example.org/group/docs/-/blob/main/guide/a b.md'],
    ['https://user@bitbucket.org/team/docs.git', 'dev', 'https://bitbucket.org/team/docs/src/dev/guide/a b.md'],
    ['git@bitbucket.org:team/docs.git', 'dev', 'https://bitbucket.org/team/docs/src/dev/guide/a b.md'],
  ];
  for (const [remote, branch, expected] of cases) {
    assert.equal(webUrlBuilder(remote, branch)?.('guide/a b.md'), expected.replace(' ', '%20'), remote);
  }
  assert.equal(
    webUrlBuilder('https://github.com/acme/docs', 'feat/x#1')?.('r.md'),
    'https://github.com/acme/docs/blob/feat/x%231/r.md',
  );
});

it('gives no web link for other hosts and local paths', () => {
  for (const remote of [
    'https://git.example.com/acme/docs.git',
    'file:///srv/git/docs.git',
    '/srv/git/docs',
    '../docs',
    'https://github.com/',
  ]) {
    assert.equal(webUrlBuilder(remote, 'main'), null, remote);
  }
});

it('tells local paths from remotes', () => {
  for (const p of ['/srv/repo', 'repo', './repo', '../a:b/repo', 'C']) assert.equal(isLocalGitPath(p), true, p);
  for (const p of ['https://x/y', 'file:///srv/repo', 'git@github.com:a/b.git', 'host:repo.git', 'ssh://h/r'])
    assert.equal(isLocalGitPath(p), false, p);
});
