// The change feed's read side: one dedicated connection LISTENs on `kbctx_changes` and, every
// HEARTBEAT_MS, reads the committed version (kbctx_meta): a notification or a version other than the
// last one seen calls `onChange` (the store coalesces catch-ups). The heartbeat also tells liveness:
// `healthy()` turns false after two failed heartbeats. A lost connection is reopened with backoff; never throws.
import pg from 'pg';
import { CHANNEL } from './keys.ts';
import { clientConfig } from './pool.ts';

const HEARTBEAT_MS = 300;
const HEARTBEAT_TIMEOUT_MS = 1_000;
const BACKOFF_MAX_MS = 2_000;

export class ChangeFeed {
  private readonly url: string;
  private readonly onChange: () => void;
  private client: pg.Client | null = null;
  private connecting: Promise<void> | null = null;
  private timer: NodeJS.Timeout | null = null;
  private beating = false;
  private failures = 0;
  private nextAttempt = 0;
  private stopped = false;
  private seen = '';
  /** Date.now() of the last answered heartbeat (0: never). */
  lastOk = 0;

  /**
   * False once two heartbeats in a row have failed: PostgreSQL is not answering. Judged by failed
   * attempts, not by time since the last answer: a process busy with in-process searches may not run
   * the heartbeat timer for seconds, and that says nothing about PostgreSQL.
   */
  healthy(): boolean {
    return this.failures < 2;
  }

  constructor(url: string, onChange: () => void) {
    this.url = url;
    this.onChange = onChange;
  }

  /** Connects and starts the heartbeat; resolves after the first answered heartbeat (rejects if there is none). */
  async start(): Promise<void> {
    this.timer = setInterval(() => void this.beat(), HEARTBEAT_MS);
    this.timer.unref();
    await this.beat(true);
  }

  private async connect(): Promise<pg.Client> {
    const client = new pg.Client({ ...clientConfig(this.url), query_timeout: HEARTBEAT_TIMEOUT_MS });
    client.on('error', () => this.drop(client));
    client.on('end', () => this.drop(client));
    client.on('notification', () => this.onChange());
    await client.connect();
    await client.query(`LISTEN ${CHANNEL}`);
    return client;
  }

  private drop(client: pg.Client): void {
    if (this.client === client) this.client = null;
    void client.end().catch(() => undefined);
  }

  /** One heartbeat (never two at once). `strict`: rethrow the failure (the first one, at start). */
  private async beat(strict = false): Promise<void> {
    if (this.beating || this.stopped) return;
    this.beating = true;
    try {
      if (!this.client) {
        if (!strict && Date.now() < this.nextAttempt) return;
        const client = await this.connect();
        if (this.stopped) {
          await client.end().catch(() => undefined);
          return;
        }
        this.client = client;
        // Notifications sent while we were away are lost: the version read below catches up.
        this.seen = '';
      }
      const row = (
        await this.client.query<{ version: string }>('SELECT version::text AS version FROM kbctx_meta WHERE id = 1')
      ).rows[0];
      this.lastOk = Date.now();
      this.failures = 0;
      if (row && row.version !== this.seen) {
        this.seen = row.version;
        this.onChange();
      }
    } catch (error) {
      if (this.client) this.drop(this.client);
      this.failures++;
      this.nextAttempt = Date.now() + Math.min(BACKOFF_MAX_MS, 100 * 2 ** Math.min(this.failures, 5));
      if (strict) throw error;
    } finally {
      this.beating = false;
    }
  }

  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearInterval(this.timer);
    const client = this.client;
    this.client = null;
    if (client) await client.end().catch(() => undefined);
  }
}
