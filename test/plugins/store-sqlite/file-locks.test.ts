import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, it } from 'node:test';
import { KbctxError } from '../../../core/api/plugin.ts';
import { lockConnector, waitForConnectorLock } from '../../../plugins/store-sqlite/file-locks.ts';

const dir = mkdtempSync(path.join(tmpdir(), 'kbctx-lock-'));
after(() => rmSync(dir, { recursive: true, force: true }));
const db = path.join(dir, 'kbctx.sqlite');
const lockFile = path.join(dir, 'locks', 'filesystem_docs.lock');

it('one holder at a time; release frees it', () => {
  const release = lockConnector(db, 'filesystem:docs', 'first');
  assert.ok(existsSync(lockFile));
  assert.throws(
    () => lockConnector(db, 'filesystem:docs', 'second'),
    (e: unknown) => e instanceof KbctxError && e.code === 'conflict',
  );
  const other = lockConnector(db, 'git:kb', 'second'); // another connector is independent
  other();
  release();
  assert.ok(!existsSync(lockFile));
  lockConnector(db, 'filesystem:docs', 'third')();
});

it('a lock left by a dead process (kill -9) is taken over', () => {
  const dead = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))'], { encoding: 'utf8' });
  mkdirSync(path.dirname(lockFile), { recursive: true });
  writeFileSync(
    lockFile,
    JSON.stringify({ pid: Number(dead.stdout), owner: 'the server', started_at: '2020-01-01T00:00:00Z' }),
  );
  const release = lockConnector(db, 'filesystem:docs', 'after the crash');
  release();
});

it('a lock with this process id but another process token (a restarted container, pid 1 again) is stale', () => {
  writeFileSync(
    lockFile,
    JSON.stringify({
      pid: process.pid,
      token: 'an earlier incarnation',
      owner: 'the server',
      started_at: '2020-01-01T00:00:00Z',
    }),
  );
  lockConnector(db, 'filesystem:docs', 'the restarted server')();
});

it('waitForConnectorLock says once that it waits, then refuses after its time-out', async () => {
  const release = lockConnector(db, 'filesystem:docs', 'holder');
  const lines: string[] = [];
  await assert.rejects(
    waitForConnectorLock(db, 'filesystem:docs', 'waiter', { timeoutMs: 300, onWait: (m) => lines.push(m) }),
    (e: unknown) => e instanceof KbctxError && e.code === 'conflict',
  );
  assert.equal(lines.length, 1);
  const waiting = waitForConnectorLock(db, 'filesystem:docs', 'waiter', { timeoutMs: 60_000 });
  release();
  (await waiting)();
});
