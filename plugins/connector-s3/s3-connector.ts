// S3 connector: lists `bucket`/`prefix` page by page (ETag as the fingerprint, so an unchanged object is
// never downloaded), downloads changed objects on load. Works with S3-compatible servers through
// `endpoint_url` (path-style, http allowed). Credentials: the standard AWS chain, never handled here.
import type { S3Client } from '@aws-sdk/client-s3';
import {
  type FileExtraction,
  type Connector,
  type LoadedItem,
  type ScanEntry,
  type ScanOptions,
  type ScanResult,
} from '../../core/api/plugin.ts';
import { createGlobFilter } from '../connector-filesystem/api.ts';
import { chunkerMetadata, loadFileItem } from '../extract-text/api.ts';
import { openS3Client, toConnectorError } from './s3-client.ts';
import type { S3ConnectorConfig } from './config-section.ts';

export interface S3ConnectorOptions {
  /** Keys per listing page (S3's maximum and default is 1000); smaller only in tests. */
  pageSize?: number | undefined;
  /** The host's format extractors (none: Markdown and plain text only). */
  extraction?: FileExtraction | undefined;
}

interface S3Object {
  key: string;
  etag: string;
  size: number;
  lastModified: Date | undefined;
}

export class S3Connector implements Connector {
  readonly type = 's3';
  readonly label: string;
  private readonly name: string;
  private readonly config: S3ConnectorConfig;
  private readonly pageSize: number;
  private readonly extraction: FileExtraction | undefined;
  private client: Promise<S3Client> | undefined;

  constructor(name: string, config: S3ConnectorConfig, options: S3ConnectorOptions = {}) {
    this.name = name;
    this.label = `s3:${name}`;
    this.config = config;
    this.pageSize = options.pageSize ?? 1000;
    this.extraction = options.extraction;
  }

  async scan(options: ScanOptions): Promise<ScanResult> {
    const client = await (this.client ??= openS3Client(this.config, this.label, this.name));
    const objects = await this.list(client, options.signal);
    const entries = objects.map<ScanEntry>((o) => ({
      sourceId: o.key,
      fingerprint: o.etag,
      load: () => this.load(client, o),
    }));
    return { entries, complete: true, deleted: [], checkpoint: null };
  }

  /** Every object under the prefix that the globs accept (matched on the key relative to the prefix). */
  private async list(client: S3Client, signal: AbortSignal | undefined): Promise<S3Object[]> {
    const { ListObjectsV2Command } = await import('@aws-sdk/client-s3');
    const { bucket, prefix, includeGlobs, excludeGlobs } = this.config;
    const filter = createGlobFilter(includeGlobs, excludeGlobs);
    const out: S3Object[] = [];
    let token: string | undefined;
    do {
      const command = new ListObjectsV2Command({
        Bucket: bucket,
        Prefix: prefix || undefined,
        ContinuationToken: token,
        MaxKeys: this.pageSize,
      });
      const page = await client.send(command, { abortSignal: signal }).catch((error: unknown) => {
        throw toConnectorError(error, this.label, this.name, this.config, 'list');
      });
      for (const item of page.Contents ?? []) {
        const key = item.Key;
        if (!key || key.endsWith('/')) continue; // folder markers hold no content
        if (!filter.accepts(key.slice(prefix.length).replace(/^\/+/, ''))) continue;
        out.push({
          key,
          etag: (item.ETag ?? '').replace(/"/g, ''),
          size: item.Size ?? 0,
          lastModified: item.LastModified,
        });
      }
      token = page.IsTruncated ? page.NextContinuationToken : undefined;
    } while (token);
    return out;
  }

  private async load(client: S3Client, object: S3Object): Promise<LoadedItem> {
    const { maxFileBytes, bucket } = this.config;
    return loadFileItem({
      sourceId: object.key,
      size: object.size,
      maxFileBytes,
      read: async () => {
        const { GetObjectCommand } = await import('@aws-sdk/client-s3');
        try {
          const response = await client.send(new GetObjectCommand({ Bucket: bucket, Key: object.key }));
          return (await response.Body?.transformToByteArray()) ?? new Uint8Array();
        } catch (error) {
          throw toConnectorError(error, this.label, this.name, this.config, `get ${object.key}`);
        }
      },
      sourceUrl: `s3://${bucket}/${object.key}`,
      updatedAt: object.lastModified?.toISOString(),
      metadata: { key: object.key, size: object.size, ...chunkerMetadata(this.config.chunker) },
      extraction: this.extraction,
    });
  }
}
