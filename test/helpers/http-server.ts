// A real upstream HTTP server on 127.0.0.1:0 for script tests: JSON, echo, status codes, redirects, and a
// route that never answers (hung upstream).
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface Upstream {
  url: string;
  close(): Promise<void>;
}

export async function startUpstream(
  extra?: (req: IncomingMessage, res: ServerResponse, body: string) => boolean,
): Promise<Upstream> {
  const hung = new Set<ServerResponse>();
  const server: Server = createServer((req, res) => {
    let body = '';
    req.setEncoding('utf8').on('data', (d: string) => (body += d));
    req.on('end', () => {
      const url = new URL(req.url ?? '/', 'http://x');
      if (extra?.(req, res, body)) return;
      if (url.pathname === '/json')
        return send(res, 200, { a: 1, n: null, list: [1, null, 3], f: 2.5 }, { 'X-Custom': 'Yes' });
      if (url.pathname === '/echo')
        return send(res, 200, {
          method: req.method,
          query: Object.fromEntries(url.searchParams),
          headers: req.headers,
          body,
        });
      if (url.pathname === '/missing') return send(res, 404, 'no such thing');
      if (url.pathname === '/hang') return void hung.add(res);
      const hop = /^\/redirect\/(\d+)$/.exec(url.pathname);
      if (hop) {
        const n = Number(hop[1]);
        if (n === 0) return send(res, 200, 'arrived');
        res.writeHead(302, { Location: `/redirect/${n - 1}` }).end();
        return;
      }
      send(res, 404, 'unknown route');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        for (const res of hung) res.destroy();
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

function send(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  const text = typeof body === 'string' ? body : JSON.stringify(body);
  res
    .writeHead(status, { 'Content-Type': typeof body === 'string' ? 'text/plain' : 'application/json', ...headers })
    .end(text);
}
