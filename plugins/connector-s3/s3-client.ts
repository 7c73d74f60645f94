// The one place that builds the AWS SDK's S3 client (imported lazily: it is large) and translates its
// failures into KbctxError('connector_error') naming the connector and what to fix.
import { configError, KbctxError } from '../../core/api/plugin.ts';
import type { S3Client } from '@aws-sdk/client-s3';
import type { S3ConnectorConfig } from './config-section.ts';

/** A client for `config`: the standard credential chain; custom endpoints use path-style addressing. */
export async function openS3Client(config: S3ConnectorConfig, label: string, name: string): Promise<S3Client> {
  const endpoint = config.endpointUrl ?? undefined;
  if (endpoint !== undefined && !URL.canParse(endpoint)) {
    throw configError(
      `${label}: endpoint_url '${endpoint}' is not a URL; fix ` +
        `connectors.s3.${name}.endpoint_url (e.g. http://127.0.0.1:9000)`,
    );
  }
  const { S3Client: Client } = await import('@aws-sdk/client-s3');
  return new Client({
    region: config.region,
    endpoint,
    forcePathStyle: endpoint !== undefined,
    maxAttempts: 3,
    // S3-compatible servers often reject the newer default checksum headers; send them only when required.
    ...(endpoint !== undefined
      ? { requestChecksumCalculation: 'WHEN_REQUIRED', responseChecksumValidation: 'WHEN_REQUIRED' }
      : {}),
  });
}

/** Translates an SDK or network failure during `action` into a connector_error with a remedy. */
export function toConnectorError(
  error: unknown,
  label: string,
  name: string,
  config: S3ConnectorConfig,
  action: string,
): KbctxError {
  const e = error as { name?: string; code?: string; message?: string; $metadata?: { httpStatusCode?: number } };
  const status = e.$metadata?.httpStatusCode;
  const where = `s3://${config.bucket}/${config.prefix}`;
  const key = `connectors.s3.${name}`;
  let remedy: string;
  if (e.name === 'NoSuchBucket' || (status === 404 && action === 'list'))
    remedy = `bucket '${config.bucket}' does not exist; fix ${key}.bucket`;
  else if (e.name === 'CredentialsProviderError')
    remedy = 'no AWS credentials found: set AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY, or AWS_PROFILE';
  else if (status === 403 || /AccessDenied|InvalidAccessKeyId|SignatureDoesNotMatch/.test(e.name ?? '')) {
    remedy = `access to ${where} was denied: check the AWS credentials (environment or profile) and the bucket policy`;
  } else if (e.name === 'PermanentRedirect' || e.name === 'AuthorizationHeaderMalformed' || status === 301)
    remedy = `the bucket is in another region; fix ${key}.region`;
  else if (
    /ECONNREFUSED|ENOTFOUND|EAI_AGAIN|ETIMEDOUT|ECONNRESET|TimeoutError/.test(
      `${e.code ?? ''} ${e.name ?? ''} ${e.message ?? ''}`,
    )
  ) {
    remedy = `cannot reach ${config.endpointUrl ?? 'S3'}: check ${key}.endpoint_url, ${key}.region and the network`;
  } else remedy = `check ${key} (bucket, prefix, region, endpoint_url) and the credentials`;
  const detail = e.message && e.message !== 'UnknownError' ? e.message : (e.name ?? 'unknown error');
  return new KbctxError('connector_error', `${label}: S3 ${action} failed (${detail}); ${remedy}`, { cause: error });
}
