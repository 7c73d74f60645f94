// Tool parameters checked by ajv: JSON Schema keywords beyond one level (nested objects, arrays,
// pattern, bounds, additionalProperties) with errors naming the path; the built-in messages stay.
import assert from 'node:assert/strict';
import { it } from 'node:test';
import { KbctxError } from '../../../core/domain/errors.ts';
import { toJsonSchema, validateParams, type ParamSpec } from '../../../core/tools/param-spec.ts';

const specs: ParamSpec[] = [
  { name: 'tags', type: 'array', schema: { items: { type: 'string', pattern: '^[a-z]+$' }, maxItems: 3 } },
  { name: 'page', type: 'object', schema: { properties: { size: { type: 'integer', minimum: 1, maximum: 50 } }, required: ['size'], additionalProperties: false } },
  { name: 'mode', type: 'string', enum: ['a', 'b'], default: 'a' },
];
const rejects = (input: unknown, message: RegExp): void =>
  assert.throws(() => validateParams(specs, input), (e: unknown) => e instanceof KbctxError && e.code === 'bad_request' && message.test(e.message));

it('checks nested arrays and objects, naming the path', () => {
  assert.deepEqual(validateParams(specs, { tags: ['ok'], page: { size: 5 } }), { tags: ['ok'], page: { size: 5 }, mode: 'a' });
  rejects({ tags: ['ok', 'NO'] }, /^parameter 'tags\/1': must match pattern "\^\[a-z\]\+\$"$/);
  rejects({ tags: ['a', 'b', 'c', 'd'] }, /^parameter 'tags': must NOT have more than 3 items$/);
  rejects({ page: { size: 0 } }, /^parameter 'page\/size': must be >= 1$/);
  rejects({ page: { size: 51 } }, /^parameter 'page\/size': must be <= 50$/);
  rejects({ page: { size: 1.5 } }, /^parameter 'page\/size' must be an integer, got the number 1.5$/);
  rejects({ page: {} }, /^missing required parameter 'page\/size'$/);
  rejects({ page: { size: 2, extra: 1 } }, /^parameter 'page': must NOT have additional properties$/);
});

it('keeps the one-level messages: type, enum, null as absent', () => {
  rejects({ mode: 'c' }, /^parameter 'mode' must be one of "a", "b", got "c"$/);
  rejects({ tags: 'x' }, /^parameter 'tags' must be an array, got string "x"$/);
  assert.deepEqual(validateParams(specs, { mode: null }), { mode: 'a' });
});

it('puts the extra keywords into the advertised JSON Schema', () => {
  assert.deepEqual(toJsonSchema(specs).properties['tags'], { type: 'array', items: { type: 'string', pattern: '^[a-z]+$' }, maxItems: 3 });
});
