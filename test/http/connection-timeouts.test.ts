// [server] time-outs over real sockets (issue 29 item 1): with short limits, a body trickled slowly is
// cut at request_timeout_secs, a socket that never sends a byte at headers_timeout_secs, and an idle
// keep-alive connection at keep_alive_timeout_secs. Node's own defaults (300 s, 60 s, 5 s + 1 s) are
// far above the bound asserted here, so a limit not passed on to node:http fails the test.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { oneRequestThenIdle, trickleBody, untilServerCloses } from '../helpers/raw-socket.ts';
import { startTestServer, type TestServer } from '../helpers/server.ts';

let s: TestServer;
before(
  async () =>
    (s = await startTestServer(
      '\n[server]\nheaders_timeout_secs = 1\nrequest_timeout_secs = 1\nkeep_alive_timeout_secs = 1\n',
    )),
);
after(async () => s.close());

/**
 * Generous: the 1 s limits plus Node's 1 s checking interval (or keep-alive buffer), with room for a loaded machine.
 */
const BOUND_MS = 4_500;

describe('connection time-outs from [server]', () => {
  it('cuts a body trickled slowly at request_timeout_secs (408)', async () => {
    const closed = await untilServerCloses(s.port, trickleBody, BOUND_MS);
    assert.match(closed.received, /^HTTP\/1\.1 408 /);
  });

  it('closes a socket that never sends a byte at headers_timeout_secs', async () => {
    const closed = await untilServerCloses(s.port, () => {}, BOUND_MS);
    assert.ok(closed.afterMs >= 900, `closed after ${closed.afterMs} ms, before the limit`);
  });

  it('closes an idle keep-alive connection at keep_alive_timeout_secs, and says so in Keep-Alive', async () => {
    const closed = await untilServerCloses(s.port, oneRequestThenIdle, BOUND_MS);
    assert.match(closed.received, /^HTTP\/1\.1 200 /);
    assert.match(closed.received, /^keep-alive: timeout=1\r$/im);
  });
});
