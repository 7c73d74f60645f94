// Caps on open 2026-07-28 `subscriptions/listen` streams (issue 21): per client (its Bearer token, else
// its address) and per server, from [server]; over a cap the answer is HTTP 429 with JSON-RPC -32005
// naming the limit, and a closed stream frees its place. Official SDK client over real HTTP.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import {
  Client,
  SdkHttpError,
  StreamableHTTPClientTransport,
  type McpSubscription,
} from '@modelcontextprotocol/client';
import { eventually } from '../helpers/live-server.ts';
import { startTestServer, type TestServer } from '../helpers/server.ts';

const LIMIT_EXCEEDED = -32005;
let s: TestServer;
before(
  async () => (s = await startTestServer('\n[server]\nmax_listen_streams = 5\nmax_listen_streams_per_client = 2\n')),
);

interface TestClient {
  client: Client;
  /** HTTP statuses of the client's requests, in order. */
  statuses: number[];
}

const clients: Client[] = [];
after(async () => {
  await Promise.all(clients.map((c) => c.close()));
  await s.close();
});

/** A 2026-07-28 client; `token` set: it sends `Authorization: Bearer <token>` (the server requires none). */
async function connect(token?: string): Promise<TestClient> {
  const statuses: number[] = [];
  const fetchAndRecord: typeof fetch = async (input, init) => {
    const res = await fetch(input, init);
    statuses.push(res.status);
    return res;
  };
  const client = new Client(
    { name: 'kbctx-listen-test', version: '1.0.0' },
    { versionNegotiation: { mode: { pin: '2026-07-28' } } },
  );
  const headers = token === undefined ? {} : { authorization: `Bearer ${token}` };
  await client.connect(
    new StreamableHTTPClientTransport(new URL(`${s.url}/mcp`), { fetch: fetchAndRecord, requestInit: { headers } }),
  );
  clients.push(client);
  return { client, statuses };
}

const listen = (c: TestClient): Promise<McpSubscription> => c.client.listen({ resourcesListChanged: true });

async function refused(c: TestClient, limit: RegExp): Promise<void> {
  const error = await listen(c).then(
    () => assert.fail('a listen stream over the cap was opened'),
    (e: unknown) => e,
  );
  // The SDK client reports a non-2xx answer as SdkHttpError carrying the JSON-RPC error body.
  assert.ok(error instanceof SdkHttpError, String(error));
  const body = JSON.parse(/\{.*\}/.exec(error.message)?.[0] ?? '{}') as { error?: { code: number; message: string } };
  assert.equal(body.error?.code, LIMIT_EXCEEDED);
  assert.match(body.error.message, limit);
  assert.equal(c.statuses.at(-1), 429);
}

describe('subscriptions/listen caps', () => {
  it(
    'a client gets max_listen_streams_per_client streams; one more ' +
      'is 429 / -32005 naming the limit; closing one frees its place',
    async () => {
      const a = await connect('client-a');
      const first = await listen(a);
      await listen(a);
      await refused(a, /the limit is 2 \(\[server\]\.max_listen_streams_per_client\)/);
      await first.close();
      await eventually(
        async () =>
          listen(a).then(
            () => true,
            () => undefined,
          ),
        'a place after closing a stream',
      );
    },
  );

  it('the server as a whole gets max_listen_streams; other clients are refused naming that limit', async () => {
    // client-a holds 2 streams from the test above; b 2 more, c 1: 5, the server's cap.
    const b = await connect('client-b');
    await listen(b);
    await listen(b);
    const c = await connect('client-c');
    await listen(c);
    await refused(await connect('client-d'), /the limit is 5 \(\[server\]\.max_listen_streams\)/);
    await refused(await connect(), /the limit is 5 \(\[server\]\.max_listen_streams\)/);
    assert.ok(!s.log.some((l) => /internal error/.test(l)), s.log.join('\n'));
  });
});
