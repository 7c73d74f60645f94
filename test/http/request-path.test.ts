// The per-request work of the HTTP listener (ADR 0132): request.clientGone fires only for a client
// that hangs up before its answer (a finished response leaves it alone, so no request pays for an
// AbortError), and the Host guard still runs first, in the same onRequest hook. Real HTTP on 127.0.0.1:0.
import assert from 'node:assert/strict';
import { connect } from 'node:net';
import { after, before, describe, it } from 'node:test';
import '../../registry/bundled.ts'; // the plugins owning [server] and the connector types (ADR 0164)
import { loadConfig } from '../../core/config/load-config.ts';
import { VERSION } from '../../core/config/version.ts';
import { buildHttpApp, type HttpListener } from '../../plugins/transport-http/http-app.ts';
import { closeGracefully } from '../../plugins/transport-http/start-http-server.ts';
import { Workspace } from '../helpers/workspace.ts';
import { serverConfigOf } from '../../plugins/transport-http/api.ts';

/** Polls `ready` every 10 ms for up to 2 s (the server sees a close asynchronously). */
async function eventually(ready: () => boolean): Promise<void> {
  for (let i = 0; i < 200 && !ready(); i++) await new Promise((r) => setTimeout(r, 10));
}

describe('request.clientGone', () => {
  const ws = new Workspace('kbctx-request-path-');
  let listener: HttpListener;
  let url: string;
  let port: number;
  /** The signal's state once each answered response has closed (after the listener's own close handler ran). */
  const afterClose: boolean[] = [];
  const hangAborted: boolean[] = [];

  before(async () => {
    ws.config('');
    const config = loadConfig({ cwd: ws.dir, env: {} });
    listener = await buildHttpApp({
      version: VERSION,
      config: serverConfigOf(config),
      bindHost: '127.0.0.1',
      log: () => {},
      surfaces: [
        {
          register: (app) => {
            app.post('/probe/answer', async (request, reply) => {
              reply.raw.once('close', () => setImmediate(() => afterClose.push(request.clientGone.aborted)));
              return { ok: true };
            });
            app.post(
              '/probe/hang',
              (request) =>
                new Promise((resolve) =>
                  request.clientGone.addEventListener('abort', () => resolve(hangAborted.push(true))),
                ),
            );
          },
        },
      ],
    });
    await listener.app.listen({ host: '127.0.0.1', port: 0 });
    port = (listener.server.address() as { port: number }).port;
    url = `http://127.0.0.1:${port}`;
  });
  after(async () => {
    await closeGracefully(listener, 100);
    ws.cleanup();
  });

  it('is not aborted once the answer was sent', async () => {
    for (let i = 0; i < 3; i++) {
      const res = await fetch(`${url}/probe/answer`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: '{}',
      });
      assert.deepEqual(await res.json(), { ok: true });
    }
    await eventually(() => afterClose.length === 3);
    assert.deepEqual(afterClose, [false, false, false]);
  });

  it('is aborted when the client hangs up before the answer', async () => {
    const socket = connect(port, '127.0.0.1');
    await new Promise((resolve) => socket.once('connect', resolve));
    socket.write(
      'POST /probe/hang HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: 2\r\n\r\n{}',
    );
    await new Promise((r) => setTimeout(r, 50)); // the request reaches the route
    socket.destroy();
    await eventually(() => hangAborted.length === 1);
    assert.deepEqual(hangAborted, [true]);
  });

  it('the Host guard still answers first: a foreign Host is 403 before any route', async () => {
    const socket = connect(port, '127.0.0.1');
    let received = '';
    socket.setEncoding('utf8').on('data', (d: string) => (received += d));
    socket.write(
      'POST /probe/answer HTTP/1.1\r\nHost: evil.example\r\nContent-Type: application/json\r\nContent-Length: ' +
        '2\r\nConnection: close\r\n\r\n{}',
    );
    await new Promise((resolve) => socket.once('close', resolve));
    assert.match(received, /^HTTP\/1\.1 403/);
    assert.match(received, /"code":"forbidden"/);
  });
});
