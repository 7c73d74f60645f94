// An OpenAI-compatible `/v1/embeddings` server on 127.0.0.1:0 answering with the test hashing
// embedder's vectors (plumbing tests only: the vectors carry no meaning).
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { hashVector } from './hashing-embedder.ts';

export interface HashingProvider {
  /** `http://127.0.0.1:<port>/v1`, for `[embedding] base_url`. */
  baseUrl: string;
  close(): Promise<void>;
}

export async function startHashingProvider(dims: number): Promise<HashingProvider> {
  const server = createServer((req, res) => {
    let data = '';
    req.on('data', (c: Buffer) => (data += c.toString()));
    req.on('end', () => {
      const input = (JSON.parse(data) as { input: string[] }).input;
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ data: input.map((t, index) => ({ index, embedding: Array.from(hashVector(t, dims)) })) }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    baseUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
