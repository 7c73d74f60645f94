// A real `kbctx serve mcp` process for live-index tests: waits for its address, keeps its log, and
// offers awaitable conditions (a log line, a search answer) instead of sleeps.
import { spawn, type ChildProcess } from 'node:child_process';
import { KBCTX_BIN, type Workspace } from './workspace.ts';

export interface LiveServer {
  child: ChildProcess;
  url: string;
  /** Everything written to stderr so far. */
  log(): string;
  exit: Promise<number | null>;
  /** Resolves when stderr (from `from` on) matches; rejects when the server exits or after `timeoutMs`. */
  waitForLog(pattern: RegExp, options?: { from?: number; timeoutMs?: number }): Promise<string>;
  search(query: string, limit?: number): Promise<SearchHit[]>;
  stop(): Promise<number | null>;
}

export interface SearchHit {
  id: string;
  source_id: string;
  title: string;
  snippet: string;
}

export function spawnLiveServer(ws: Workspace, args: string[] = [], env: NodeJS.ProcessEnv = {}): Promise<LiveServer> {
  const child = spawn(process.execPath, [KBCTX_BIN, 'serve', 'mcp', '--bind', '127.0.0.1:0', ...args], {
    cwd: ws.dir,
    env: { ...process.env, KBCTX_CONFIG: '', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const exit = new Promise<number | null>((resolve) =>
    child.on('exit', (code, signal) => resolve(code ?? (signal ? -1 : null))),
  );
  let stdout = '';
  let stderr = '';
  const waiters = new Set<() => void>();
  child.stderr!.setEncoding('utf8').on('data', (d: string) => {
    stderr += d;
    for (const w of waiters) w();
  });
  const waitForLog = (pattern: RegExp, options: { from?: number; timeoutMs?: number } = {}): Promise<string> =>
    new Promise((resolve, reject) => {
      const check = (): void => {
        const m = pattern.exec(stderr.slice(options.from ?? 0));
        if (!m) return;
        done();
        resolve(m[0]);
      };
      const timer = setTimeout(() => {
        done();
        reject(new Error(`no log line matching ${pattern} in:\n${stderr}`));
      }, options.timeoutMs ?? 30_000);
      const done = (): void => {
        clearTimeout(timer);
        waiters.delete(check);
      };
      waiters.add(check);
      void exit.then(() => {
        check();
        done();
        reject(new Error(`server exited; log:\n${stderr}`));
      });
      check();
    });
  return new Promise((resolve, reject) => {
    child.stdout!.setEncoding('utf8').on('data', (d: string) => {
      stdout += d;
      const m = /MCP endpoint: (http:\/\/[^\s]+)\/mcp/.exec(stdout);
      if (!m) return;
      const url = m[1]!;
      resolve({
        child,
        url,
        exit,
        log: () => stderr,
        waitForLog,
        async search(query, limit = 20) {
          const res = await fetch(`${url}/tools/search`, {
            method: 'POST',
            headers: { 'content-type': 'application/json' },
            body: JSON.stringify({ query, limit }),
          });
          if (res.status !== 200) throw new Error(`search ${res.status}: ${await res.text()}`);
          return ((await res.json()) as { results: SearchHit[] }).results;
        },
        async stop() {
          child.kill('SIGTERM');
          return exit;
        },
      });
    });
    void exit.then((code) => reject(new Error(`server exited ${code}: ${stderr}`)));
  });
}

/**
 * POST /tools/search, whatever the status: 200 with results, else the error (503 `unavailable` while PostgreSQL is
 * down).
 */
export async function searchRaw(
  server: LiveServer,
  query: string,
): Promise<{ status: number; body: { results?: { source_id: string }[]; error?: { code: string } } }> {
  const res = await fetch(`${server.url}/tools/search`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ query }),
  });
  return {
    status: res.status,
    body: (await res.json()) as { results?: { source_id: string }[]; error?: { code: string } },
  };
}

/**
 * Re-evaluates `probe` (every `everyMs`) until it returns a value other than undefined; a condition to await, not a
 * timing check.
 */
export async function eventually<T>(
  probe: () => Promise<T | undefined>,
  what: string,
  timeoutMs = 30_000,
  everyMs = 100,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, everyMs));
  }
}
