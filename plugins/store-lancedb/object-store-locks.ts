// The locks of an index in a bucket (ADR 0230): the per-connector sync locks and the table's write lock, each a
// lease lock (s3-lease.ts) under `<prefix>/_kbctx/locks/`, so syncs on different machines exclude each other and a
// killed holder's lock is taken over once its lease runs out.
import { KbctxError, waitForLock, type ConnectorLocks, type ReleaseLock } from '../../core/api/plugin.ts';
import { setTimeout as sleep } from 'node:timers/promises';
import type { S3Client } from '@aws-sdk/client-s3';
import type * as S3Sdk from '@aws-sdk/client-s3';
import { openS3Client, type ObjectStoreLocation } from './object-store.ts';
import { S3Lease, type LeaseClaim } from './s3-lease.ts';

const LOCKS = '_kbctx/locks';

export class ObjectStoreLocks {
  private readonly releasing = new Set<Promise<void>>();
  private readonly sdk: typeof S3Sdk;
  readonly client: S3Client;
  readonly location: ObjectStoreLocation;
  private readonly leaseMs: number;

  private constructor(sdk: typeof S3Sdk, client: S3Client, location: ObjectStoreLocation, leaseMs: number) {
    this.sdk = sdk;
    this.client = client;
    this.location = location;
    this.leaseMs = leaseMs;
  }

  static async open(
    location: ObjectStoreLocation,
    storageOptions: Readonly<Record<string, string>>,
    leaseMs: number,
  ): Promise<ObjectStoreLocks> {
    const sdk = await import('@aws-sdk/client-s3');
    return new ObjectStoreLocks(sdk, await openS3Client(storageOptions), location, leaseMs);
  }

  private lease(name: string): S3Lease {
    const base = this.location.prefix ? `${this.location.prefix}/` : '';
    return new S3Lease(
      this.sdk,
      this.client,
      { bucket: this.location.bucket, prefix: `${base}${LOCKS}/${name}/` },
      this.leaseMs,
    );
  }

  /** Runs `fn` holding the table's write lock, waiting for another writer (or its lease) to finish. */
  async withWriteLock<T>(fn: () => Promise<T>): Promise<T> {
    const lease = this.lease('write');
    for (;;) {
      const attempt = await lease.tryAcquire('a LanceDB commit');
      if (attempt.held) {
        try {
          return await fn();
        } finally {
          await attempt.release();
        }
      }
      await sleep(20 + Math.random() * 130); // random: two contenders that saw each other do not meet again
    }
  }

  connectorLocks(): ConnectorLocks {
    const acquire = async (label: string, owner: string): Promise<ReleaseLock> => {
      const lease = this.lease(`sync/${label.replace(/[^\w.-]/g, '_')}`);
      let attempt = await lease.tryAcquire(owner);
      // Two contenders that saw each other both back off: one more try after a random pause settles it.
      if (!attempt.held) {
        await sleep(Math.random() * 150);
        attempt = await lease.tryAcquire(owner);
      }
      if (!attempt.held) throw busy(label, attempt.holder, this.leaseMs);
      const { release } = attempt;
      return () => {
        const done = release().catch(() => undefined);
        this.releasing.add(done);
        void done.then(() => this.releasing.delete(done));
      };
    };
    return { acquire, wait: (label, owner, options) => waitForLock(() => acquire(label, owner), options) };
  }

  /** Waits for the releases under way (a process exiting right after a sync leaves no lock behind), then closes. */
  async close(): Promise<void> {
    await Promise.all(this.releasing);
    this.client.destroy();
  }
}

function busy(label: string, holder: LeaseClaim | null, leaseMs: number): KbctxError {
  const who = holder
    ? `${holder.owner} (pid ${holder.pid} on ${holder.host}, since ${holder.started_at})`
    : 'another process';
  return new KbctxError(
    'conflict',
    `${label} is being synced by ${who}; wait for it to finish (a holder that died is taken over ` +
      `${leaseMs / 1000} s after its last renewal, [db] lock_lease) and run the command again`,
  );
}
