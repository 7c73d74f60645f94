import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, it } from 'node:test';
import { findConfig } from '../../../core/config/find-config.ts';

const root = mkdtempSync(path.join(tmpdir(), 'kbctx-find-'));
after(() => rmSync(root, { recursive: true, force: true }));
const touch = (relative: string): string => {
  const file = path.join(root, relative);
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(file, '');
  return file;
};
const home = path.join(root, 'home');
const find = (cwd: string, env: NodeJS.ProcessEnv = {}) => findConfig({ cwd, env: { HOME: home, ...env } });

it('finds kbctx and Context Harness locations in order, never the default when a file exists', () => {
  const ws = path.join(root, 'ws');
  const deep = path.join(ws, 'a', 'b');
  mkdirSync(deep, { recursive: true });
  assert.equal(find(deep).file, null);
  const globalFile = touch('home/.config/ctx/config.toml');
  assert.equal(find(deep).file, globalFile, 'global ctx config');
  assert.equal(
    find(deep, { XDG_CONFIG_HOME: path.join(root, 'xdg') }).file,
    null,
    'XDG_CONFIG_HOME moves the global folder',
  );
  const dotCtx = touch('ws/.ctx/config.toml');
  assert.deepEqual(
    [find(deep).file, find(deep).baseDir],
    [dotCtx, ws],
    '.ctx/config.toml walking up; paths resolve against its workspace',
  );
  const legacy = touch('ws/a/b/config/ctx.toml');
  assert.equal(find(deep).file, dotCtx, '.ctx/ wins over config/ctx.toml, as in Context Harness');
  rmSync(path.join(ws, '.ctx'), { recursive: true });
  assert.equal(find(deep).file, legacy);
  const code = touch('ws/a/b/config/kbctx.config.mjs');
  touch('ws/.ctx/config.toml');
  assert.deepEqual(
    [find(deep).file, find(deep).via, find(deep).baseDir],
    [code, './config/kbctx.config.mjs', deep],
    'config as code beats .ctx/ walking up and config/ctx.toml',
  );
  const kbctx = touch('ws/a/b/config/kbctx.toml');
  assert.equal(find(deep).file, kbctx, 'config/kbctx.toml beats config/kbctx.config.mjs');
  assert.equal(
    find(deep, { KBCTX_CONFIG: 'etc/kbctx.config.mjs' }).file,
    path.join(deep, 'etc/kbctx.config.mjs'),
    'a module by $KBCTX_CONFIG',
  );
  assert.equal(find(deep, { CTX_CONFIG: 'x.toml' }).file, path.join(deep, 'x.toml'));
  assert.equal(find(deep, { CTX_CONFIG: 'x.toml', KBCTX_CONFIG: 'y.toml' }).file, path.join(deep, 'y.toml'));
  assert.equal(
    findConfig({ configPath: 'z.toml', cwd: deep, env: { KBCTX_CONFIG: 'y.toml' } }).file,
    path.join(deep, 'z.toml'),
  );
});
