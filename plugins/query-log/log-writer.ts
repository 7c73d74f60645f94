// The query log's file: lines are buffered and appended asynchronously, one write at a time, so a search
// never waits for the disk nor fails with it. Rotation by size: before a write that would take the file past
// `maxBytes`, file.N-1 → file.N … file → file.1 (the oldest past `keep` is dropped). A write error is
// reported once (until a write succeeds again), never thrown; lines past the buffer's cap are dropped.
import { appendFile, mkdir, rename, rm, stat } from 'node:fs/promises';
import path from 'node:path';

export interface LogWriterOptions {
  file: string;
  maxBytes: number;
  keep: number;
  /** Told about the first failing write of a run of failures. */
  warn(message: string): void;
}

/** Lines waiting while the disk is slow or failing; past it new lines are dropped (a search never waits). */
const MAX_PENDING_LINES = 10_000;

export class LogWriter {
  private pending: string[] = [];
  private draining: Promise<void> | undefined;
  /** The file's size as this writer knows it; undefined until first read. */
  private size: number | undefined;
  private failing = false;
  private readonly options: LogWriterOptions;

  constructor(options: LogWriterOptions) {
    this.options = options;
  }

  /** Queues one line (without its newline); returns at once. */
  append(line: string): void {
    if (this.pending.length >= MAX_PENDING_LINES) return;
    this.pending.push(`${line}\n`);
    this.draining ??= this.drain();
  }

  /** Resolves once every line queued so far is written (or given up on). */
  async flush(): Promise<void> {
    while (this.draining) await this.draining;
  }

  private async drain(): Promise<void> {
    try {
      while (this.pending.length > 0) {
        const lines = this.pending;
        this.pending = [];
        await this.write(lines);
      }
    } finally {
      this.draining = undefined;
    }
  }

  private async write(lines: string[]): Promise<void> {
    try {
      // One append per line that fits: a batch larger than the limit still rotates between its lines.
      for (const line of lines) {
        const bytes = Buffer.byteLength(line);
        this.size ??= await currentSize(this.options.file);
        if (this.size > 0 && this.size + bytes > this.options.maxBytes) await this.rotate();
        await appendFile(this.options.file, line, { mode: 0o600 });
        this.size += bytes;
      }
      this.failing = false;
    } catch (error) {
      this.size = undefined; // read again next time: the file may have changed under us
      if (this.failing) return;
      this.failing = true;
      this.options.warn(
        `cannot write the query log ${this.options.file}: ` +
          `${error instanceof Error ? error.message : String(error)} (searches go on; lines are dropped until a ` +
          `write succeeds)`,
      );
    }
  }

  private async rotate(): Promise<void> {
    const { file, keep } = this.options;
    if (keep === 0) await rm(file, { force: true });
    else {
      for (let i = keep - 1; i >= 1; i--) await rename(`${file}.${i}`, `${file}.${i + 1}`).catch(ignoreMissing);
      await rename(file, `${file}.1`);
    }
    this.size = 0;
  }
}

async function currentSize(file: string): Promise<number> {
  try {
    return (await stat(file)).size;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
    await mkdir(path.dirname(file), { recursive: true });
    return 0;
  }
}

function ignoreMissing(error: unknown): void {
  if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
}
