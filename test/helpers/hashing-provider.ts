// An OpenAI-compatible `/v1/embeddings` server on 127.0.0.1:0 answering with the test hashing
// embedder's vectors (plumbing tests only: the vectors carry no meaning).
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { hashVector } from './hashing-embedder.ts';

export interface HashingProvider {
  /** `http://127.0.0.1:<port>/v1`, for `[embedding] base_url`. */
  baseUrl: string;
  /** Texts embedded so far (vectors computed), by every client. */
  computed(): number;
  /** Requests answered so far. */
  requests(): number;
  close(): Promise<void>;
}

/** `delayMs`: each answer waits this long (a slow model), so embedders run side by side. */
export async function startHashingProvider(dims: number, options: { delayMs?: number } = {}): Promise<HashingProvider> {
  let computed = 0;
  let requests = 0;
  const server = createServer((req, res) => {
    let data = '';
    req.on('data', (c: Buffer) => (data += c.toString()));
    req.on('end', () => {
      const input = (JSON.parse(data) as { input: string[] }).input;
      computed += input.length;
      requests++;
      setTimeout(() => answer(input), options.delayMs ?? 0);
    });
    const answer = (input: string[]): void => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(
        JSON.stringify({ data: input.map((t, index) => ({ index, embedding: Array.from(hashVector(t, dims)) })) }),
      );
    };
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    baseUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`,
    computed: () => computed,
    requests: () => requests,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
