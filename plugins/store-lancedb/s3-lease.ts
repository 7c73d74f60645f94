// A lock with a lease on S3 (ADR 0230), for servers without conditional writes (s3rver has no `If-None-Match` on PUT;
// real S3 has had it only since 2024): every contender PUTs its own claim object under the lock's prefix, then LISTs
// the prefix (S3 lists are strongly consistent after a write).
// 1. A claim is live while the server clock (its LastModified) is less than the lease behind the newest claim's.
//    Expired claims (a holder killed with -9 stops renewing) are deleted by whoever sees them.
// 2. The contender whose claim is the only live one holds the lock: any other contender PUT before this LIST and so
//    appears in it, and any later one sees this claim. Otherwise it deletes its claim and reports the oldest live one.
//    Two contenders that see each other both back off (the caller retries after a random pause).
// 3. The holder re-PUTs its claim every lease / 3; release deletes it.
// Only the server's clock is compared, never a machine's. A holder paused for longer than the lease can lose the lock
// without knowing: the lease must exceed any pause (GC, a stopped VM).
import type { S3Client } from '@aws-sdk/client-s3';
import type * as S3Sdk from '@aws-sdk/client-s3';
import { hostname } from 'node:os';

export interface LeaseClaim {
  owner: string;
  pid: number;
  host: string;
  started_at: string;
}

export type LeaseAttempt = { held: true; release: () => Promise<void> } | { held: false; holder: LeaseClaim | null };

export class S3Lease {
  private readonly s3: typeof S3Sdk;
  private readonly client: S3Client;
  private readonly bucket: string;
  /** The lock's key prefix, ending in `/`. */
  private readonly prefix: string;
  private readonly leaseMs: number;

  constructor(sdk: typeof S3Sdk, client: S3Client, where: { bucket: string; prefix: string }, leaseMs: number) {
    this.s3 = sdk;
    this.client = client;
    this.bucket = where.bucket;
    this.prefix = where.prefix;
    this.leaseMs = leaseMs;
  }

  /** One attempt (steps 1–2); a held lock is renewed until released (step 3). */
  async tryAcquire(owner: string): Promise<LeaseAttempt> {
    const { PutObjectCommand, DeleteObjectCommand } = this.s3;
    const key = `${this.prefix}${Date.now().toString(36)}-${process.getBuiltinModule('node:crypto').randomUUID()}`;
    const claim: LeaseClaim = { owner, pid: process.pid, host: hostname(), started_at: new Date().toISOString() };
    const body = JSON.stringify(claim);
    const put = () => this.client.send(new PutObjectCommand({ Bucket: this.bucket, Key: key, Body: body }));
    const remove = (k: string) => this.client.send(new DeleteObjectCommand({ Bucket: this.bucket, Key: k }));
    await put();
    const claims = await this.list();
    const now = Math.max(claims.get(key) ?? 0, ...claims.values());
    const live: [string, number][] = [];
    for (const [k, modified] of claims) {
      if (k === key) continue;
      if (now - modified >= this.leaseMs) await remove(k).catch(() => undefined);
      else live.push([k, modified]);
    }
    if (live.length > 0) {
      await remove(key).catch(() => undefined);
      live.sort((a, b) => a[1] - b[1] || (a[0] < b[0] ? -1 : 1));
      return { held: false, holder: await this.read(live[0]![0]) };
    }
    let renewing: Promise<unknown> = Promise.resolve();
    const timer = setInterval(
      () => {
        renewing = put().catch(() => undefined);
      },
      Math.max(100, Math.floor(this.leaseMs / 3)),
    );
    timer.unref();
    let released: Promise<void> | undefined;
    return {
      held: true,
      release: () =>
        (released ??= (async () => {
          clearInterval(timer);
          await renewing;
          await remove(key);
        })()),
    };
  }

  /** The claims under the prefix: key → LastModified (ms). */
  private async list(): Promise<Map<string, number>> {
    const out = new Map<string, number>();
    let token: string | undefined;
    do {
      const page = await this.client.send(
        new this.s3.ListObjectsV2Command({ Bucket: this.bucket, Prefix: this.prefix, ContinuationToken: token }),
      );
      for (const o of page.Contents ?? []) if (o.Key) out.set(o.Key, o.LastModified?.getTime() ?? 0);
      token = page.IsTruncated ? page.NextContinuationToken : undefined;
    } while (token);
    return out;
  }

  private async read(key: string): Promise<LeaseClaim | null> {
    try {
      const got = await this.client.send(new this.s3.GetObjectCommand({ Bucket: this.bucket, Key: key }));
      return JSON.parse((await got.Body?.transformToString()) ?? '') as LeaseClaim;
    } catch {
      return null; // released meanwhile, or not a claim
    }
  }
}
