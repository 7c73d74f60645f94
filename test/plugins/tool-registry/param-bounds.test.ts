// Input bounds every tool inherits: nesting depth (iterative, so absurd depths cannot overflow the
// stack) and string lengths, through validateParams like every surface.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { KbctxError } from '../../../core/domain/errors.ts';
import type { ParamSpec } from '../../../core/api/plugin.ts';
import { MAX_PARAM_DEPTH, MAX_STRING_PARAM_CHARS } from '../../../plugins/tool-registry/param-bounds.ts';
import { validateParams } from '../../../plugins/tool-registry/param-spec.ts';

const nested = (levels: number): unknown => JSON.parse(`{"v":${'['.repeat(levels - 1)}1${']'.repeat(levels - 1)}}`);
const badRequest = (fn: () => unknown, message: RegExp): void =>
  assert.throws(fn, (e: unknown) => e instanceof KbctxError && e.code === 'bad_request' && message.test(e.message));

describe('parameter bounds', () => {
  it('accepts input exactly MAX_PARAM_DEPTH levels deep and rejects one level more', () => {
    assert.doesNotThrow(() => validateParams([], nested(MAX_PARAM_DEPTH)));
    badRequest(() => validateParams([], nested(MAX_PARAM_DEPTH + 1)), /nested more than 32 levels/);
  });

  it('rejects 200,000 levels without a stack overflow', () => {
    badRequest(() => validateParams([], nested(200_000)), /nested more than 32 levels/);
  });

  it('bounds declared strings by maxLength, or the default limit', () => {
    const specs: ParamSpec[] = [
      { name: 'short', type: 'string', maxLength: 5 },
      { name: 'long', type: 'string' },
    ];
    assert.deepEqual(validateParams(specs, { short: 'abcde' }), { short: 'abcde' });
    badRequest(
      () => validateParams(specs, { short: 'abcdef' }),
      /parameter 'short' is 6 characters long; the limit is 5/,
    );
    assert.doesNotThrow(() => validateParams(specs, { long: 'x'.repeat(MAX_STRING_PARAM_CHARS) }));
    badRequest(() => validateParams(specs, { long: 'x'.repeat(MAX_STRING_PARAM_CHARS + 1) }), /parameter 'long'/);
  });
});

describe('prototype keys (issue 29)', () => {
  it('refuses __proto__, constructor and prototype at any depth, as own keys from JSON', () => {
    for (const body of [
      '{"__proto__":{"x":1}}',
      '{"a":{"constructor":{"prototype":{"x":1}}}}',
      '{"a":[{"prototype":1}]}',
    ]) {
      badRequest(
        () => validateParams([], JSON.parse(body)),
        /parameter key '(__proto__|constructor|prototype)' is not accepted/,
      );
    }
    assert.deepEqual(validateParams([], { a: { proto: 1, ctor: [1] } }), { a: { proto: 1, ctor: [1] } });
  });
});
