// A stand-in remote rerank API on 127.0.0.1 (real HTTP, port 0) speaking the four wire formats under
// /<format>/rerank (cohere, jina, voyage, tei). It scores each document by its position, so the last
// one sent scores highest: it reverses the order it is given. /slow/<format>/rerank answers after
// `slowMs`; /fail/<format>/rerank answers 500. A request of the wrong shape gets a 400. It counts requests.
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface StandInReranker {
  url: string;
  /** Requests received, with their path and parsed body. */
  readonly requests: { path: string; body: Record<string, unknown>; authorization: string | undefined }[];
  close(): Promise<void>;
}

export async function startStandInReranker(slowMs = 2000): Promise<StandInReranker> {
  const requests: StandInReranker['requests'] = [];
  const server: Server = createServer((req, res) => {
    void readBody(req).then(async (text) => {
      const body = JSON.parse(text || '{}') as Record<string, unknown>;
      const path = req.url ?? '';
      requests.push({ path, body, authorization: req.headers.authorization });
      const send = (status: number, value: unknown): void => {
        res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(value));
      };
      const m = /^\/(slow\/|fail\/)?(cohere|jina|voyage|tei)\/(?:v\d\/)?rerank$/.exec(path);
      if (!m) return send(404, { error: 'no such route' });
      if (m[1] === 'fail/') return send(500, { message: 'the model crashed' });
      if (m[1] === 'slow/') await new Promise((r) => setTimeout(r, slowMs));
      const answer = reversedAnswer(m[2]!, body);
      return answer ? send(200, answer) : send(400, { message: `not a ${m[2]} rerank request` });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

function reversedAnswer(format: string, body: Record<string, unknown>): unknown {
  if (typeof body['query'] !== 'string') return undefined;
  const documents = format === 'tei' ? body['texts'] : body['documents'];
  if (!Array.isArray(documents) || !documents.every((d) => typeof d === 'string')) return undefined;
  const n = documents.length;
  const scored = documents.map((_, index) => ({ index, score: (index + 1) / (n + 1) })).reverse();
  if (format === 'tei') return scored;
  const top = format === 'voyage' ? body['top_k'] : body['top_n'];
  if (top !== undefined && typeof top !== 'number') return undefined;
  const results = scored.slice(0, top ?? n).map((s) => ({ index: s.index, relevance_score: s.score }));
  return format === 'voyage' ? { object: 'list', data: results, model: body['model'] } : { results };
}

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    let text = '';
    req.setEncoding('utf8').on('data', (d: string) => (text += d));
    req.on('end', () => resolve(text));
    req.on('error', reject);
  });
}
