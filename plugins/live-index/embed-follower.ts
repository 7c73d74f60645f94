// Background embedding after syncs: one pass at a time over every pending chunk; a pass requested
// while one runs is merged into one more pass; a failed pass (provider outage) is retried with backoff.
// Search keeps answering throughout: vectors are written batch by batch.
import type { EmbedReport, Embedder } from '../../core/api/plugin.ts';
import type { LiveIndexHost } from './api.ts';

const RETRY_FIRST_MS = 30_000;
const RETRY_MAX_MS = 1_800_000;

export class EmbedFollower {
  private readonly embedding: NonNullable<LiveIndexHost['embedding']>;
  private readonly log: (line: string) => void;
  private wanted = false;
  private running: Promise<void> | null = null;
  private timer: NodeJS.Timeout | null = null;
  private failures = 0;
  private closed = false;

  constructor(embedding: NonNullable<LiveIndexHost['embedding']>, log: (line: string) => void) {
    this.embedding = embedding;
    this.log = log;
  }

  request(): void {
    if (this.closed) return;
    this.wanted = true;
    this.running ??= this.drain();
  }

  async idle(): Promise<void> {
    while (this.running) await this.running;
  }

  close(): void {
    this.closed = true;
    if (this.timer) clearTimeout(this.timer);
  }

  private async drain(): Promise<void> {
    while (this.wanted && !this.closed) {
      this.wanted = false;
      const report = await this.pass();
      if (report?.failure) {
        this.failures++;
        const delay = Math.min(RETRY_FIRST_MS * 2 ** (this.failures - 1), RETRY_MAX_MS);
        this.log(
          `embed: failed after ${report.embedded} of ${report.pending} chunk(s): ${report.failure.message}; ` +
            `retrying in ${Math.round(delay / 1000)} s`,
        );
        if (this.timer) clearTimeout(this.timer);
        this.timer = setTimeout(() => this.request(), delay);
        this.timer.unref();
        break;
      }
      this.failures = 0;
      if (report && report.embedded > 0)
        this.log(`embed: ${report.embedded} chunk(s) with ${report.model} (${Math.round(report.durationMs)} ms)`);
    }
    this.running = null;
  }

  private async pass(): Promise<EmbedReport | null> {
    let embedder: Embedder | null;
    try {
      embedder = this.embedding.embedder();
    } catch (error) {
      this.log(`embed: skipped: ${(error as Error).message}`);
      return null;
    }
    if (!embedder) return null;
    try {
      return await this.embedding.embedPending(embedder);
    } catch (error) {
      // embedPending reports provider failures itself; anything else is retried the same way.
      const failure = { code: 'internal', message: (error as Error).message };
      return { model: embedder.model, pending: 0, embedded: 0, dropped: 0, failure, index: null, durationMs: 0 };
    }
  }
}
