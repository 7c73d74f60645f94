// A real PostgreSQL for tests: Debian's `postgresql` package (the highest /usr/lib/postgresql/*/bin),
// initdb'd into a fresh temp dir, listening on 127.0.0.1 on a free port, run as an unprivileged user
// (PostgreSQL refuses root). Only processes started here are ever stopped or killed.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { chownSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { unprivilegedUser, type UserIds } from './unprivileged-user.ts';

export interface TestPostgres {
  /** postgres://… of the `postgres` database (a fresh server has nothing else). */
  url: string;
  /** A URL to a new, empty database on this server. */
  createDatabase(): Promise<string>;
  /** Fast shutdown, then starts again on the same port and data. */
  restart(): Promise<void>;
  /** Stops the server (fast shutdown) and leaves it down; `start()` brings it back. */
  down(): Promise<void>;
  start(): Promise<void>;
  /** SIGKILL of the postmaster (a crash), then nothing: `start()` recovers. */
  kill(): Promise<void>;
  /** Stops the server and removes its files. */
  stop(): Promise<void>;
}

function binDir(): string {
  const root = '/usr/lib/postgresql';
  const versions = existsSync(root)
    ? readdirSync(root).filter((v) => existsSync(path.join(root, v, 'bin', 'postgres')))
    : [];
  versions.sort((a, b) => Number(b) - Number(a));
  if (versions.length === 0) {
    throw new Error(
      'the PostgreSQL tests need a PostgreSQL server: install it with `apt-get install -y postgresql` (Debian/Ubuntu)',
    );
  }
  return path.join(root, versions[0]!, 'bin');
}

/** The uid/gid to run the server as: ourselves unless root, else `postgres` (or `nobody`). */
const serverUser = (): UserIds | null => unprivilegedUser(['postgres', 'nobody']);

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as { port: number }).port;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

const running = new Set<ChildProcess>();
const dirs = new Set<string>();
function cleanUp(): void {
  for (const child of running) child.kill('SIGKILL');
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
}
process.on('exit', cleanUp);
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => {
    cleanUp();
    process.exit(128 + (signal === 'SIGINT' ? 2 : 15));
  });
}

const isAlive = (pid: number): boolean => {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
};

/**
 * Servers left behind by an earlier test process killed outright (SIGKILL skips every handler): a temp
 * dir of ours whose `owner.pid` process is gone. Its postmaster is stopped only if its command line
 * names that very data dir (never anyone else's PostgreSQL), then the dir is removed.
 */
function sweepOrphans(): void {
  for (const name of readdirSync(tmpdir()).filter((n) => n.startsWith('kbctx-pg-'))) {
    const dir = path.join(tmpdir(), name);
    let owner: number;
    try {
      owner = Number(readFileSync(path.join(dir, 'owner.pid'), 'utf8'));
    } catch {
      continue;
    }
    if (!owner || isAlive(owner)) continue;
    try {
      const postmaster = Number(readFileSync(path.join(dir, 'data', 'postmaster.pid'), 'utf8').split('\n')[0]);
      if (postmaster && readFileSync(`/proc/${postmaster}/cmdline`, 'utf8').includes(path.join(dir, 'data')))
        process.kill(postmaster, 'SIGKILL');
    } catch {
      // no server running there
    }
    rmSync(dir, { recursive: true, force: true });
  }
}

async function waitReady(url: string, child: ChildProcess, log: () => string): Promise<void> {
  for (let attempt = 0; ; attempt++) {
    if (child.exitCode !== null) throw new Error(`PostgreSQL exited (${child.exitCode}):\n${log()}`);
    const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 1000 });
    try {
      await client.connect();
      await client.query('SELECT 1');
      await client.end();
      return;
    } catch (error) {
      await client.end().catch(() => undefined);
      if (attempt > 300)
        throw new Error(`PostgreSQL did not start: ${(error as Error).message}\n${log()}`, { cause: error });
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }
}

export async function startPostgres(): Promise<TestPostgres> {
  const bin = binDir();
  const user = serverUser();
  sweepOrphans();
  const dir = mkdtempSync(path.join(tmpdir(), 'kbctx-pg-'));
  dirs.add(dir);
  writeFileSync(path.join(dir, 'owner.pid'), String(process.pid));
  const data = path.join(dir, 'data');
  if (user) chownSync(dir, user.uid, user.gid);
  const ids = user ? { uid: user.uid, gid: user.gid } : {};
  const env = { ...process.env, LC_ALL: 'C', LANG: 'C', HOME: dir };
  const init = spawnSync(
    path.join(bin, 'initdb'),
    ['-D', data, '-U', 'postgres', '--auth=trust', '-E', 'UTF8', '--no-sync'],
    { ...ids, env, encoding: 'utf8' },
  );
  if (init.status !== 0) throw new Error(`initdb failed: ${init.stderr || init.error?.message}`);
  const port = await freePort();
  writeFileSync(
    path.join(data, 'postgresql.auto.conf'),
    [
      `listen_addresses = '127.0.0.1'`,
      `port = ${port}`,
      `unix_socket_directories = '${dir}'`,
      'fsync = off',
      'synchronous_commit = off',
      'full_page_writes = off',
      'shared_buffers = 16MB',
      'max_connections = 100',
      "log_min_messages = 'warning'",
    ].join('\n') + '\n',
  );
  if (user) chownSync(path.join(data, 'postgresql.auto.conf'), user.uid, user.gid);
  const url = `postgres://postgres@127.0.0.1:${port}/postgres`;
  let child: ChildProcess | null = null;
  let output = '';

  const start = async (): Promise<void> => {
    // After a SIGKILL the old backends may still hold shared memory for a moment: retry the start.
    for (let attempt = 0; ; attempt++) {
      output = '';
      const proc = spawn(path.join(bin, 'postgres'), ['-D', data], { ...ids, env, stdio: ['ignore', 'pipe', 'pipe'] });
      proc.stdout.on('data', (b: Buffer) => (output += b.toString()));
      proc.stderr.on('data', (b: Buffer) => (output += b.toString()));
      running.add(proc);
      proc.on('exit', () => running.delete(proc));
      child = proc;
      try {
        await waitReady(url, proc, () => output);
        return;
      } catch (error) {
        if (attempt >= 20 || proc.exitCode === null) throw error;
        await new Promise((resolve) => setTimeout(resolve, 250));
      }
    }
  };
  const signal = async (sig: NodeJS.Signals): Promise<void> => {
    const proc = child;
    child = null;
    if (!proc || proc.exitCode !== null || proc.signalCode !== null) return;
    const exited = new Promise((resolve) => proc.once('exit', resolve));
    proc.kill(sig);
    await exited;
  };
  await start();

  let databases = 0;
  return {
    url,
    async createDatabase() {
      const name = `kbctx_test_${++databases}`;
      const client = new pg.Client({ connectionString: url });
      await client.connect();
      try {
        await client.query(`CREATE DATABASE ${name}`);
      } finally {
        await client.end();
      }
      return url.replace(/\/postgres$/, `/${name}`);
    },
    start,
    down: () => signal('SIGINT'),
    async restart() {
      await signal('SIGINT');
      await start();
    },
    kill: () => signal('SIGKILL'),
    async stop() {
      await signal('SIGINT');
      rmSync(dir, { recursive: true, force: true });
      dirs.delete(dir);
    },
  };
}

let shared: Promise<TestPostgres> | null = null;

/** One server per test process, started on first use: tests take a fresh database each (createDatabase). */
export function sharedPostgres(): Promise<TestPostgres> {
  shared ??= startPostgres();
  return shared;
}

/** Stops the shared server (call from a test file's `after`). */
export async function stopSharedPostgres(): Promise<void> {
  const server = shared;
  shared = null;
  if (server) await (await server).stop();
}
