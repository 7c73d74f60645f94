import assert from 'node:assert/strict';
import { it } from 'node:test';
import { KbctxError } from '../../../core/index.ts';
import type { SyncControl } from '../../../plugins/live-index/api.ts';
import { isLoopbackAddress, syncRoutes } from '../../../plugins/live-index/sync-routes.ts';

const idle = {
  connector: 'git:kb',
  state: 'idle' as const,
  lastStartedAt: null,
  lastFinishedAt: null,
  lastCounts: null,
  lastError: null,
  nextRunAt: null,
};
const triggered: string[] = [];
const control: SyncControl = {
  status: () => Promise.resolve([idle]),
  trigger: (label) => (triggered.push(label), Promise.resolve(idle)),
};
const post = (tokenRequired: boolean) => syncRoutes(control, { tokenRequired }).find((r) => r.method === 'POST')!;
const JSON_TYPE = 'application/json';
const request = (remoteAddress: string, contentType: string | undefined) => ({
  params: { connector: 'git:kb' },
  body: {},
  signal: new AbortController().signal,
  remoteAddress,
  contentType,
});

it('POST /sync/{connector} from another host is forbidden unless the server requires a token', async () => {
  await assert.rejects(
    post(false).handle(request('192.0.2.7', JSON_TYPE)),
    (e: unknown) => e instanceof KbctxError && e.code === 'forbidden',
  );
  assert.deepEqual(triggered, []);
  await post(false).handle(request('::ffff:127.0.0.1', JSON_TYPE));
  await post(true).handle(request('192.0.2.7', JSON_TYPE));
  assert.deepEqual(triggered, ['git:kb', 'git:kb']);
});

it(
  'POST /sync/{connector} without a JSON Content-Type is 415 and ' +
    'starts nothing (no cross-origin trigger without a preflight)',
  async () => {
    triggered.length = 0;
    for (const type of [
      undefined,
      'text/plain',
      'application/x-www-form-urlencoded',
      'multipart/form-data; boundary=x',
      'application/jsonp',
      'text/json',
    ]) {
      await assert.rejects(
        post(false).handle(request('127.0.0.1', type)),
        (e: unknown) =>
          e instanceof KbctxError &&
          e.code === 'unsupported_media_type' &&
          /Content-Type: application\/json/.test(e.message),
        String(type),
      );
    }
    assert.deepEqual(triggered, []);
    for (const type of ['application/json', 'Application/JSON; charset=utf-8', 'application/vnd.kbctx+json'])
      await post(false).handle(request('127.0.0.1', type));
    assert.equal(triggered.length, 3);
  },
);

it('loopback peers: 127/8, ::1 and their IPv4-mapped form', () => {
  assert.ok(
    isLoopbackAddress('127.0.0.1') &&
      isLoopbackAddress('127.5.0.1') &&
      isLoopbackAddress('::1') &&
      isLoopbackAddress('::ffff:127.0.0.1'),
  );
  assert.ok(!isLoopbackAddress('10.0.0.1') && !isLoopbackAddress('::ffff:10.0.0.1') && !isLoopbackAddress(undefined));
});
