// POST /tools/{name} for tools beyond the built-ins (registered through the real registry, as
// script tools will be): {result}, validation 400, and an unexpected failure as 500 with an id.
import assert from 'node:assert/strict';
import { after, before, it } from 'node:test';
import { startTestServer, type TestServer } from '../helpers/server.ts';

let s: TestServer;
before(async () => (s = await startTestServer('', { extraTools: true })));
after(async () => s.close());

const post = (path: string, body: unknown): Promise<Response> =>
  fetch(s.url + path, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });

it('lists registered tools after the built-ins, marked builtin false', async () => {
  const { tools } = (await (await fetch(`${s.url}/tools/list`)).json()) as {
    tools: { name: string; builtin: boolean }[];
  };
  assert.deepEqual(
    tools.map((t) => [t.name, t.builtin]),
    [
      ['search', true],
      ['get', true],
      ['sources', true],
      ['boom', false],
      ['echo', false],
    ],
  );
});

it('POST /tools/{name} → {result}', async () => {
  const res = await post('/tools/echo', { text: 'hi' });
  assert.equal(res.status, 200);
  assert.deepEqual(await res.json(), { result: { echoed: 'hi' } });
});

it('validation → 400 naming the parameter', async () => {
  const res = await post('/tools/echo', { text: 3 });
  assert.equal(res.status, 400);
  const body = (await res.json()) as { error: { code: string; message: string } };
  assert.equal(body.error.code, 'bad_request');
  assert.match(body.error.message, /'text'/);
});

it('an unexpected error is a 500 with an id, the stack goes to the log, the server keeps serving', async () => {
  const res = await post('/tools/boom', {});
  assert.equal(res.status, 500);
  const body = (await res.json()) as { error: { code: string; message: string; id: string } };
  assert.equal(body.error.code, 'internal');
  assert.doesNotMatch(body.error.message, /kaboom/);
  assert.ok(s.log.some((line) => line.includes(body.error.id) && line.includes('kaboom')));
  assert.equal((await fetch(`${s.url}/health`)).status, 200);
});
