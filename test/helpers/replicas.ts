// Replicas for e2e tests: a real PostgreSQL (postgres.ts), a workspace, and `kbctx serve` processes
// started from configs in it. close() stops what is still running, then the server, then the files.
import type { LiveServer } from './live-server.ts';
import { spawnLiveServer } from './live-server.ts';
import { startPostgres, type TestPostgres } from './postgres.ts';
import { Workspace } from './workspace.ts';

export class Replicas {
  readonly ws: Workspace;
  readonly servers: LiveServer[] = [];
  private server: TestPostgres | null = null;

  constructor(prefix: string) {
    this.ws = new Workspace(prefix);
  }

  async start(): Promise<void> {
    this.server = await startPostgres();
  }

  get pg(): TestPostgres {
    if (!this.server) throw new Error('Replicas.start() was not awaited');
    return this.server;
  }

  /** Writes `<name>.toml` and starts `kbctx serve` on it (its mirror goes where its [db] path says). */
  async spawn(name: string, toml: string, args: string[] = []): Promise<LiveServer> {
    this.ws.write(`${name}.toml`, toml);
    const server = await spawnLiveServer(this.ws, args, { KBCTX_CONFIG: this.ws.path(`${name}.toml`) });
    this.servers.push(server);
    return server;
  }

  /** Stops every replica still running and returns their exit codes (a clean stop is 0). */
  async stopAll(): Promise<(number | null)[]> {
    const codes: (number | null)[] = [];
    for (const s of this.servers.splice(0)) codes.push(await s.stop());
    return codes;
  }

  async close(): Promise<void> {
    await this.stopAll();
    await this.server?.stop();
    this.ws.cleanup();
  }
}
