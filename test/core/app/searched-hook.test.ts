// The `searched` hook as the search use-case calls it (ADR 0220): untapped it is absent (a search reads no
// clock), a tap that throws does not fail the caller, and the request origin nests (an inner surface keeps
// the outer token) across awaits.
import assert from 'node:assert/strict';
import { it } from 'node:test';
import { Kernel } from '../../../core/kernel.ts';
import { definePlugin } from '../../../core/plugin.ts';
import { pipelineOf } from '../../../core/app/plugin-pipeline.ts';
import { requestOrigin, withRequestOrigin } from '../../../core/app/request-origin.ts';
import type { SearchRecord } from '../../../core/domain/search-record.ts';

const quiet = { logger: () => ({ info() {}, warn() {}, debug() {} }) };
const record: SearchRecord = {
  request: { query: 'otters', mode: 'keyword', limit: 3, source: undefined, explain: false },
  results: [],
  latencyMs: 1.5,
  origin: { surface: 'rest', token: null },
};

it('no tap: no searched function; a throwing tap is not the caller’s error', () => {
  const kernel = new Kernel(quiet);
  assert.equal(pipelineOf(kernel).searched, undefined);
  kernel.applySync(
    definePlugin({
      name: 'bad-observer',
      version: '1.0.0',
      kbctx: '^0.2',
      apply: (k) =>
        k.hooks.searched.tap('bad-observer', () => {
          throw new Error('observer broke');
        }),
    }),
    {},
    'path',
    'x',
  );
  const { searched } = pipelineOf(kernel);
  assert.equal(typeof searched, 'function');
  assert.doesNotThrow(() => searched!(record));
});

it('a tap sees the record; origins nest and survive awaits', async () => {
  const kernel = new Kernel(quiet);
  const seen: SearchRecord[] = [];
  kernel.applySync(
    definePlugin({
      name: 'observer',
      version: '1.0.0',
      kbctx: '^0.2',
      apply: (k) => k.hooks.searched.tap('observer', (r) => void seen.push(r)),
    }),
    {},
    'path',
    'x',
  );
  pipelineOf(kernel).searched!(record);
  assert.deepEqual(seen, [record]);
  assert.deepEqual(requestOrigin(), {});
  const inner = await withRequestOrigin({ token: 'default' }, () =>
    withRequestOrigin({ surface: 'mcp', token: undefined }, async () => {
      await new Promise((resolve) => setImmediate(resolve));
      return requestOrigin();
    }),
  );
  assert.deepEqual(inner, { token: 'default', surface: 'mcp' });
});
