// An index in a bucket (ADR 0231): the location `s3://bucket/prefix` split up, the options Lance gets, and the S3
// client kbctx's own lock objects use (ADR 0230), built from the same `[db] storage_options` and AWS_* variables.
// Imported only for an object-storage path: the AWS SDK is large.
import { configError } from '../../core/api/plugin.ts';
import type { S3Client } from '@aws-sdk/client-s3';

export interface ObjectStoreLocation {
  scheme: 's3' | 'gs' | 'az';
  bucket: string;
  /** The key prefix of the index, without a trailing slash ('' for the bucket's root). */
  prefix: string;
}

export function parseLocation(url: string): ObjectStoreLocation {
  const m = /^(s3|gs|az):\/\/([^/]+)\/?(.*)$/i.exec(url.trim());
  if (!m) throw configError(`db.path = "${url}": expected s3://bucket/prefix (or gs://, az://)`);
  return {
    scheme: m[1]!.toLowerCase() as ObjectStoreLocation['scheme'],
    bucket: m[2]!,
    prefix: m[3]!.replace(/\/+$/, ''),
  };
}

/** The first storage option set among `keys` (Lance accepts each key with and without the `aws_` prefix). */
function option(options: Readonly<Record<string, string>>, ...keys: string[]): string | undefined {
  for (const key of keys) {
    const value = options[key] ?? options[key.toUpperCase()];
    if (value !== undefined && value !== '') return value;
  }
  return undefined;
}

/**
 * A client for the bucket, as Lance's own: the endpoint, region and keys from `[db] storage_options`, else the AWS_*
 * variables and the SDK's credential chain. A custom endpoint (s3rver, MinIO) gets path-style addressing.
 */
export async function openS3Client(options: Readonly<Record<string, string>>, env = process.env): Promise<S3Client> {
  const endpoint =
    option(options, 'aws_endpoint', 'endpoint', 'aws_endpoint_url', 'endpoint_url') ??
    (env['AWS_ENDPOINT_URL_S3'] || env['AWS_ENDPOINT_URL'] || env['AWS_ENDPOINT'] || undefined);
  if (endpoint !== undefined && !URL.canParse(endpoint))
    throw configError(`db.storage_options endpoint "${endpoint}" is not a URL (e.g. http://127.0.0.1:9000)`);
  const region =
    option(options, 'aws_region', 'region') ?? (env['AWS_REGION'] || env['AWS_DEFAULT_REGION'] || 'us-east-1');
  const accessKeyId = option(options, 'aws_access_key_id', 'access_key_id');
  const secretAccessKey = option(options, 'aws_secret_access_key', 'secret_access_key');
  const sessionToken = option(options, 'aws_session_token', 'session_token', 'token');
  const virtualHosted = option(options, 'aws_virtual_hosted_style_request', 'virtual_hosted_style_request');
  const { S3Client: Client } = await import('@aws-sdk/client-s3');
  return new Client({
    region,
    endpoint,
    forcePathStyle: endpoint !== undefined && virtualHosted !== 'true',
    maxAttempts: 3,
    ...(accessKeyId && secretAccessKey ? { credentials: { accessKeyId, secretAccessKey, sessionToken } } : {}),
    // S3-compatible servers often reject the newer default checksum headers; send them only when required.
    ...(endpoint !== undefined
      ? { requestChecksumCalculation: 'WHEN_REQUIRED', responseChecksumValidation: 'WHEN_REQUIRED' }
      : {}),
  });
}

/** The bytes stored under the index's prefix (its table, and kbctx's lock objects). */
export async function bucketSize(client: S3Client, location: ObjectStoreLocation): Promise<number> {
  const { ListObjectsV2Command } = await import('@aws-sdk/client-s3');
  let total = 0;
  let token: string | undefined;
  do {
    const page = await client.send(
      new ListObjectsV2Command({
        Bucket: location.bucket,
        Prefix: location.prefix ? `${location.prefix}/` : undefined,
        ContinuationToken: token,
      }),
    );
    for (const o of page.Contents ?? []) total += o.Size ?? 0;
    token = page.IsTruncated ? page.NextContinuationToken : undefined;
  } while (token);
  return total;
}
