// Starts a real S3-compatible server (s3rver) on 127.0.0.1 in a child process, plus a client to seed it.
// s3rver needs --openssl-legacy-provider on Node ≥ 17, or every second listing page fails.
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { DeleteObjectCommand, PutObjectCommand, S3Client } from '@aws-sdk/client-s3';

/** Environment for anything talking to the test server: s3rver's fixed keys, no real AWS config. */
export const S3_TEST_ENV = {
  AWS_ACCESS_KEY_ID: 'S3RVER',
  AWS_SECRET_ACCESS_KEY: 'S3RVER',
  AWS_REGION: 'us-east-1',
  AWS_EC2_METADATA_DISABLED: 'true',
  AWS_CONFIG_FILE: '/nonexistent/aws-config',
  AWS_SHARED_CREDENTIALS_FILE: '/nonexistent/aws-credentials',
};

export interface S3TestServer {
  endpoint: string;
  /** The folder holding the buckets, and the port: startS3Server(…, { dir, port }) restarts the same server. */
  dir: string;
  port: number;
  put(bucket: string, key: string, body: string | Uint8Array): Promise<void>;
  remove(bucket: string, key: string): Promise<void>;
  /** Stops the server; its folder is removed unless `keep` (to start it again). */
  stop(options?: { keep?: boolean }): Promise<void>;
}

export async function startS3Server(
  buckets: string[],
  where: { dir?: string; port?: number } = {},
): Promise<S3TestServer> {
  const dir = where.dir ?? mkdtempSync(path.join(tmpdir(), 'kbctx-s3rver-'));
  const script = fileURLToPath(new URL('./s3rver-child.js', import.meta.url));
  const child = spawn(process.execPath, ['--openssl-legacy-provider', script, dir, ...buckets], {
    stdio: ['pipe', 'pipe', 'inherit'],
    env: { ...process.env, S3RVER_PORT: String(where.port ?? 0) },
  });
  const [line] = (await Promise.race([
    once(child.stdout.setEncoding('utf8'), 'data'),
    once(child, 'exit').then(() => {
      throw new Error('s3rver exited before listening');
    }),
  ])) as [string];
  const { port } = JSON.parse(line) as { port: number };
  const endpoint = `http://127.0.0.1:${port}`;
  const client = new S3Client({
    endpoint,
    region: 'us-east-1',
    forcePathStyle: true,
    credentials: { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' },
    requestChecksumCalculation: 'WHEN_REQUIRED',
    responseChecksumValidation: 'WHEN_REQUIRED',
  });
  return {
    endpoint,
    dir,
    port,
    put: async (bucket, key, body) =>
      void (await client.send(new PutObjectCommand({ Bucket: bucket, Key: key, Body: body }))),
    remove: async (bucket, key) => void (await client.send(new DeleteObjectCommand({ Bucket: bucket, Key: key }))),
    async stop(options = {}) {
      client.destroy();
      child.stdin.end();
      if (child.exitCode === null) await once(child, 'exit');
      if (!options.keep) rmSync(dir, { recursive: true, force: true });
    },
  };
}
