// Downloads one file into the cache safely:
//  1. bytes go to `<file>.part`; a `.part` left by an earlier run is resumed with `Range: bytes=N-`
//     (206 appends; a 200 starts over);
//  2. a body that stops mid-way is resumed the same way, up to ATTEMPTS times;
//  3. the whole file's size and sha256 are checked against the hub's announcement, and only then is
//     the file renamed to its name — a killed or corrupted download never leaves a file that loads;
//     a checksum mismatch deletes the `.part` (after one fresh retry when it was resumed).
import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { mkdir, open, rename, stat, unlink } from 'node:fs/promises';
import { dirname } from 'node:path';
import { KbctxError } from '../../core/api/plugin.ts';
import { authHeaders, unreachable, type HubFile } from './hub-file.ts';

const ATTEMPTS = 4;

export interface DownloadRequest {
  readonly url: string;
  readonly token: string | null;
  /** The final path (absolute). */
  readonly dest: string;
  readonly expected: HubFile;
  /** Bytes of this file on disk so far (resumed bytes included). */
  onBytes(done: number): void;
}

/** Returns the verified size and sha256 (null when the hub announced none). */
export async function downloadFile(r: DownloadRequest): Promise<{ size: number; sha256: string | null }> {
  const part = `${r.dest}.part`;
  await mkdir(dirname(r.dest), { recursive: true });
  let freshRetry = true;
  let lastError: unknown = null;
  for (let attempt = 0; attempt < ATTEMPTS; attempt++) {
    let have = await sizeOf(part);
    if (r.expected.size !== null && have > r.expected.size) have = await discard(part);
    const resumed = have > 0;
    if (r.expected.size === null || have < r.expected.size) {
      try {
        await receive(r, part, have);
      } catch (error) {
        if (error instanceof KbctxError) throw error;
        lastError = error; // stopped mid-body: the next attempt resumes
        continue;
      }
    }
    const size = await sizeOf(part);
    if (r.expected.size !== null && size < r.expected.size) continue;
    const sha256 = await hashFile(part);
    const sizeWrong = r.expected.size !== null && size !== r.expected.size;
    if (sizeWrong || (r.expected.sha256 !== null && sha256 !== r.expected.sha256)) {
      await discard(part);
      if (resumed && freshRetry) {
        freshRetry = false; // the resumed part may have come from an older revision: once more from scratch
        continue;
      }
      const what = sizeWrong
        ? `${size} bytes, announced ${r.expected.size}`
        : `sha256 ${sha256}, announced ${r.expected.sha256}`;
      throw new KbctxError(
        'upstream_error',
        `refused ${r.url}: the download does not match the hub's announcement (${what}); nothing was cached`,
      );
    }
    await rename(part, r.dest);
    return { size, sha256: r.expected.sha256 };
  }
  throw lastError instanceof Error
    ? unreachable(r.url, lastError)
    : new KbctxError('upstream_error', `could not download ${r.url} whole after ${ATTEMPTS} attempts`);
}

/** One GET from byte `have`, appended to `part`. Network faults propagate as plain errors (resumable). */
async function receive(r: DownloadRequest, part: string, have: number): Promise<void> {
  const headers = { ...authHeaders(r.token), ...(have > 0 ? { range: `bytes=${have}-` } : {}) };
  const response = await fetch(r.url, { headers, redirect: 'follow' });
  if (response.status === 416) {
    await discard(part);
    throw new Error('range not satisfiable');
  }
  if (response.status !== 200 && response.status !== 206) {
    await response.body?.cancel();
    throw new KbctxError('upstream_error', `the model hub answered HTTP ${response.status} for ${r.url}`);
  }
  let done = response.status === 206 ? have : 0;
  const file = await open(part, response.status === 206 ? 'a' : 'w');
  try {
    r.onBytes(done);
    if (response.body) {
      for await (const chunk of response.body) {
        await file.write(chunk);
        done += chunk.byteLength;
        r.onBytes(done);
      }
    }
  } finally {
    await file.close();
  }
}

async function hashFile(file: string): Promise<string> {
  const hash = createHash('sha256');
  for await (const chunk of createReadStream(file)) hash.update(chunk as Buffer);
  return hash.digest('hex');
}

async function sizeOf(file: string): Promise<number> {
  try {
    return (await stat(file)).size;
  } catch {
    return 0;
  }
}

async function discard(file: string): Promise<0> {
  await unlink(file).catch(() => undefined);
  return 0;
}
