// A page on any loopback origin can send "simple" requests (no preflight): a form post, or fetch with
// no body, text/plain or a form body. Such a POST must not run a tool, an agent or a sync: every POST
// needs a JSON content type (ADR 0140), which a browser sends cross-origin only after a preflight.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startTestServer, type TestServer } from '../helpers/server.ts';
import { toolsOf } from '../../plugins/tool-registry/api.ts';
import type { Tool } from '../../plugins/tool-registry/api.ts';

describe('POST without a JSON content type (a cross-origin simple request)', () => {
  let s: TestServer;
  let calls = 0;
  const sideEffect: Tool = {
    name: 'bump',
    description: 'Counts its calls.',
    params: [],
    builtin: false,
    readOnly: false,
    run: () => Promise.resolve({ calls: ++calls }),
  };
  before(async () => {
    s = await startTestServer();
    toolsOf(s.kbctx.kernel).register(sideEffect);
  });
  after(async () => s.close());

  const simple: [string, RequestInit][] = [
    ['no body and no Content-Type', {}],
    ['an empty text/plain body', { headers: { 'content-type': 'text/plain' }, body: '' }],
    ['a text/plain body', { headers: { 'content-type': 'text/plain;charset=UTF-8' }, body: '{}' }],
    ['an empty form body', { headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: '' }],
    ['a multipart body', { headers: { 'content-type': 'multipart/form-data; boundary=x' }, body: '--x--\r\n' }],
  ];
  for (const [what, init] of simple) {
    it(`refuses ${what} with 415 on /tools/<name> and /agents/<name>/prompt, and runs nothing`, async () => {
      for (const route of ['/tools/bump', '/agents/helper/prompt']) {
        const res = await fetch(`${s.url}${route}`, {
          method: 'POST',
          ...init,
          headers: { origin: 'http://localhost:5173', ...(init.headers as Record<string, string> | undefined) },
        });
        const body = (await res.json()) as { error: { code: string; message: string } };
        assert.equal(res.status, 415, `${route}: ${JSON.stringify(body)}`);
        assert.equal(body.error.code, 'unsupported_media_type');
        assert.match(body.error.message, /needs Content-Type: application\/json/);
      }
      assert.equal(calls, 0, 'the tool never ran');
    });
  }

  it('still runs with a JSON content type, with or without a body', async () => {
    for (const body of ['{}', undefined]) {
      const res = await fetch(`${s.url}/tools/bump`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body,
      });
      assert.equal(res.status, 200, await res.clone().text());
    }
    assert.equal(calls, 2);
  });
});
