// Scoped tokens on a real `kbctx serve mcp` (ADR 0223, 0224): `auth_token_env` (`default`, every scope) next to a
// hashed admin token, a variable-held token limited to some tools and one request at a time, and one limited to
// two requests a minute. Over REST and the official MCP client: 401 for a wrong token, tools and agents filtered,
// 403 on /sync and /metrics without admin, 429 with Retry-After for the token over its limit while others go on.
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { request as httpRequest, type ClientRequest } from 'node:http';
import { after, before, describe, it } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { spawnServer, type KbctxServer } from '../helpers/kbctx-server.ts';
import { Workspace } from '../helpers/workspace.ts';

const SECRETS = { main: 'main-secret-1', ops: 'ops-secret-2', reader: 'reader-secret-3', metered: 'metered-secret-4' };
const ENV = { MAIN_TOKEN: SECRETS.main, READER_TOKEN: SECRETS.reader, METERED_TOKEN: SECRETS.metered };
const hash = (s: string): string => createHash('sha256').update(s).digest('hex');
const CONFIG = `[connectors.filesystem.docs]
root = "docs"

[agents.inline.helper]
description = "Answers from the knowledge base"
tools = ["search"]
system_prompt = "Search first."

[agents.inline.auditor]
description = "Audits"
tools = ["search"]
system_prompt = "Audit."

[server]
watch = false
auth_token_env = "MAIN_TOKEN"

[server.tokens.ops]
token_sha256 = "${hash(SECRETS.ops)}"
admin = true

[server.tokens.reader]
token_env = "READER_TOKEN"
tools = ["search", "help*"]
max_concurrent = 1

[server.tokens.metered]
token_env = "METERED_TOKEN"
requests_per_minute = 2
`;

const auth = (secret: string) => ({ authorization: `Bearer ${secret}` });
const get = (url: string, secret?: string) => fetch(url, { headers: secret === undefined ? {} : auth(secret) });
const post = (url: string, secret: string, body: object) =>
  fetch(url, {
    method: 'POST',
    headers: { ...auth(secret), 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
const errorOf = async (res: Response) => ((await res.json()) as { error: { code: string; message: string } }).error;

let ws: Workspace;
let s: KbctxServer;
before(async () => {
  ws = new Workspace('kbctx-tokens-');
  ws.write('docs/fox.md', '# Foxes\n\nThe quick brown fox lives in a den.\n');
  ws.config(CONFIG);
  s = await spawnServer(ws, ['serve', 'mcp', '--bind', '127.0.0.1:0'], ENV);
});
after(async () => {
  await s?.stop();
  ws?.cleanup();
});

describe('who may come in', () => {
  it('answers the env-held, hashed and default tokens, and 401 for a wrong or missing one', async () => {
    for (const secret of [SECRETS.main, SECRETS.ops, SECRETS.reader])
      assert.equal((await get(`${s.url}/tools/list`, secret)).status, 200, secret);
    const wrong = await get(`${s.url}/tools/list`, 'not-a-token');
    assert.equal(wrong.status, 401);
    assert.equal(wrong.headers.get('www-authenticate'), 'Bearer realm="kbctx"');
    assert.equal((await errorOf(wrong)).code, 'unauthorized');
    assert.equal((await get(`${s.url}/tools/list`)).status, 401);
    // the hash itself is not a token
    assert.equal((await get(`${s.url}/tools/list`, hash(SECRETS.ops))).status, 401);
    assert.doesNotMatch(s.stderr(), /secret-\d/);
  });
});

describe('the tools scope', () => {
  it('REST lists and calls only the tools and agents the token names; others are unknown', async () => {
    const names = async (secret: string, what: 'tools' | 'agents') =>
      ((await (await get(`${s.url}/${what}/list`, secret)).json()) as Record<string, { name: string }[]>)[what]!.map(
        (t) => t.name,
      );
    assert.deepEqual(await names(SECRETS.reader, 'tools'), ['search']);
    assert.deepEqual(await names(SECRETS.reader, 'agents'), ['helper']);
    assert.deepEqual(await names(SECRETS.main, 'tools'), ['search', 'get', 'sources']);
    assert.deepEqual(await names(SECRETS.main, 'agents'), ['auditor', 'helper']);
    assert.equal((await post(`${s.url}/tools/search`, SECRETS.reader, { query: 'fox' })).status, 200);
    const refused = await post(`${s.url}/tools/get`, SECRETS.reader, { id: 'x' });
    assert.equal(refused.status, 404);
    const error = await errorOf(refused);
    assert.equal(error.code, 'not_found');
    assert.equal(error.message, "unknown tool 'get'; available tools: search");
    assert.equal((await get(`${s.url}/tools/sources`, SECRETS.reader)).status, 404);
    assert.equal((await post(`${s.url}/tools/sources`, SECRETS.reader, {})).status, 404);
    assert.equal((await post(`${s.url}/agents/auditor/prompt`, SECRETS.reader, {})).status, 404);
    assert.equal((await post(`${s.url}/agents/helper/prompt`, SECRETS.reader, {})).status, 200);
    assert.equal((await post(`${s.url}/agents/auditor/prompt`, SECRETS.main, {})).status, 200);
  });

  it('MCP tools/list and prompts/list leave them out; calling one is the unknown-tool answer', async () => {
    const client = new Client({ name: 'kbctx-test', version: '1.0.0' });
    await client.connect(
      new StreamableHTTPClientTransport(new URL(`${s.url}/mcp`), { requestInit: { headers: auth(SECRETS.reader) } }),
    );
    try {
      assert.deepEqual(
        (await client.listTools()).tools.map((t) => t.name),
        ['search'],
      );
      assert.deepEqual(
        (await client.listPrompts()).prompts.map((p) => p.name),
        ['helper'],
      );
      await assert.rejects(client.callTool({ name: 'get', arguments: { id: 'x' } }), /Unknown tool: get/);
      await assert.rejects(client.callTool({ name: 'nope', arguments: {} }), /Unknown tool: nope/);
      await assert.rejects(client.getPrompt({ name: 'auditor' }), /Unknown prompt: auditor/);
      const found = await client.callTool({ name: 'search', arguments: { query: 'fox' } });
      assert.notEqual(found.isError, true);
    } finally {
      await client.close();
    }
    const full = new Client({ name: 'kbctx-test', version: '1.0.0' });
    await full.connect(
      new StreamableHTTPClientTransport(new URL(`${s.url}/mcp`), { requestInit: { headers: auth(SECRETS.main) } }),
    );
    try {
      assert.deepEqual(
        (await full.listTools()).tools.map((t) => t.name),
        ['search', 'get', 'sources'],
      );
    } finally {
      await full.close();
    }
  });
});

describe('the admin scope', () => {
  it('403 forbidden naming the token on /sync and /metrics without admin; 200 with it', async () => {
    for (const path of ['/sync/status', '/metrics']) {
      const refused = await get(`${s.url}${path}`, SECRETS.reader);
      assert.equal(refused.status, 403, path);
      const error = await errorOf(refused);
      assert.equal(error.code, 'forbidden');
      assert.match(error.message, /token 'reader' may not use GET .*: it needs the admin scope/);
      assert.equal((await get(`${s.url}${path}`, SECRETS.ops)).status, 200, path);
      assert.equal((await get(`${s.url}${path}`, SECRETS.main)).status, 200, path);
    }
    const trigger = await post(`${s.url}/sync/filesystem:docs`, SECRETS.reader, {});
    assert.equal(trigger.status, 403);
    assert.equal((await post(`${s.url}/sync/filesystem:docs`, SECRETS.ops, {})).status, 200);
  });
});

describe('fairness limits', () => {
  it('requests_per_minute: 429 rate_limited with Retry-After past the allowance; other tokens unaffected', async () => {
    assert.equal((await get(`${s.url}/tools/list`, SECRETS.metered)).status, 200);
    assert.equal((await get(`${s.url}/tools/list`, SECRETS.metered)).status, 200);
    const limited = await get(`${s.url}/tools/list`, SECRETS.metered);
    assert.equal(limited.status, 429);
    const seconds = Number(limited.headers.get('retry-after'));
    assert.ok(seconds >= 1 && seconds <= 30, `Retry-After ${seconds}`);
    const error = await errorOf(limited);
    assert.equal(error.code, 'rate_limited');
    assert.match(error.message, /token 'metered' is over its requests_per_minute \(2\); retry after \d+ s/);
    assert.equal((await get(`${s.url}/tools/list`, SECRETS.ops)).status, 200);
  });

  it('max_concurrent: a second request while one is open is 429; another token is served; freed after', async () => {
    const held = openRequest(s.url, SECRETS.reader);
    try {
      // The held request's headers are in; once the server has admitted it, the next one of the token is refused.
      let refused: Response | undefined;
      for (let i = 0; i < 400 && !refused; i++) {
        const res = await get(`${s.url}/tools/list`, SECRETS.reader);
        if (res.status === 429) refused = res;
        else await sleep(10);
      }
      assert.ok(refused, 'never refused while a request was open');
      assert.equal(refused.headers.get('retry-after'), '1');
      assert.match(
        (await errorOf(refused)).message,
        /token 'reader' is over its max_concurrent \(1 requests at once\)/,
      );
      assert.equal((await get(`${s.url}/tools/list`, SECRETS.main)).status, 200);
      assert.equal((await post(`${s.url}/tools/search`, SECRETS.ops, { query: 'fox' })).status, 200);
    } finally {
      held.destroy();
    }
    let status = 0;
    for (let i = 0; i < 400 && status !== 200; i++) {
      status = (await get(`${s.url}/tools/list`, SECRETS.reader)).status;
      if (status !== 200) await sleep(10);
    }
    assert.equal(status, 200);
  });
});

/** A POST whose body never finishes: the server has its headers (and the token's slot) until it is destroyed. */
function openRequest(base: string, secret: string): ClientRequest {
  const url = new URL(`${base}/tools/search`);
  const req = httpRequest({
    host: url.hostname,
    port: url.port,
    path: url.pathname,
    method: 'POST',
    headers: { ...auth(secret), 'content-type': 'application/json', 'content-length': '100' },
  });
  req.on('error', () => {}); // destroyed on purpose
  req.write('{"query":');
  return req;
}
