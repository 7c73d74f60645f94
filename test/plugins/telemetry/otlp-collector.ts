// A stand-in OTLP/HTTP collector on 127.0.0.1 port 0: takes POST /v1/traces in the JSON encoding (the
// exporter-trace-otlp-http default) and keeps the spans, flattened, with their resource's attributes.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface ReceivedSpan {
  name: string;
  traceId: string;
  spanId: string;
  parentSpanId: string;
  kind: number;
  attributes: Record<string, unknown>;
  resource: Record<string, unknown>;
}

interface KeyValue {
  key: string;
  value: Record<string, unknown>;
}
interface ExportBody {
  resourceSpans: {
    resource: { attributes: KeyValue[] };
    scopeSpans: { spans: (Omit<ReceivedSpan, 'attributes' | 'resource'> & { attributes?: KeyValue[] })[] }[];
  }[];
}

const toRecord = (kvs: KeyValue[] = []): Record<string, unknown> =>
  Object.fromEntries(kvs.map(({ key, value }) => [key, Object.values(value)[0]]));

export class OtlpCollector {
  readonly spans: ReceivedSpan[] = [];
  /** Requests received (any path). */
  requests = 0;
  private readonly server: Server = createServer((req, res) => {
    this.requests++;
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      if (req.method !== 'POST' || req.url !== '/v1/traces' || !/json/.test(req.headers['content-type'] ?? '')) {
        res.writeHead(404).end();
        return;
      }
      const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as ExportBody;
      for (const rs of body.resourceSpans)
        for (const ss of rs.scopeSpans)
          for (const s of ss.spans)
            this.spans.push({
              ...s,
              parentSpanId: s.parentSpanId ?? '',
              attributes: toRecord(s.attributes),
              resource: toRecord(rs.resource.attributes),
            });
      res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
    });
  });

  async start(): Promise<string> {
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  named(name: string): ReceivedSpan[] {
    return this.spans.filter((s) => s.name === name);
  }

  /** The one span named so (fails otherwise). */
  one(name: string): ReceivedSpan {
    const found = this.named(name);
    if (found.length !== 1)
      throw new Error(`${found.length} spans named ${name}: ${this.spans.map((s) => s.name).join(', ')}`);
    return found[0]!;
  }

  childrenOf(parent: ReceivedSpan): string[] {
    return this.spans
      .filter((s) => s.parentSpanId === parent.spanId)
      .map((s) => s.name)
      .sort();
  }

  clear(): void {
    this.spans.length = 0;
    this.requests = 0;
  }

  close(): Promise<void> {
    return new Promise((resolve) => this.server.close(() => resolve()));
  }
}
