// Tool parameters checked by ajv: JSON Schema keywords beyond one level (nested objects, arrays,
// pattern, bounds, additionalProperties) with errors naming the path; the built-in messages stay.
import assert from 'node:assert/strict';
import { it } from 'node:test';
import { KbctxError } from '../../../core/domain/errors.ts';
import type { ParamSpec } from '../../../core/api/plugin.ts';
import { toJsonSchema, validateParams } from '../../../plugins/tool-registry/param-spec.ts';

const specs: ParamSpec[] = [
  { name: 'tags', type: 'array', schema: { items: { type: 'string', pattern: '^[a-z]+$' }, maxItems: 3 } },
  {
    name: 'page',
    type: 'object',
    schema: {
      properties: { size: { type: 'integer', minimum: 1, maximum: 50 } },
      required: ['size'],
      additionalProperties: false,
    },
  },
  { name: 'mode', type: 'string', enum: ['a', 'b'], default: 'a' },
];
const rejects = (input: unknown, message: RegExp): void =>
  assert.throws(
    () => validateParams(specs, input),
    (e: unknown) => e instanceof KbctxError && e.code === 'bad_request' && message.test(e.message),
  );

it('checks nested arrays and objects, naming the path', () => {
  assert.deepEqual(validateParams(specs, { tags: ['ok'], page: { size: 5 } }), {
    tags: ['ok'],
    page: { size: 5 },
    mode: 'a',
  });
  rejects({ tags: ['ok', 'NO'] }, /^parameter 'tags\/1': must match pattern "\^\[a-z\]\+\$"$/);
  rejects({ tags: ['a', 'b', 'c', 'd'] }, /^parameter 'tags': must NOT have more than 3 items$/);
  rejects({ page: { size: 0 } }, /^parameter 'page\/size': must be >= 1$/);
  rejects({ page: { size: 51 } }, /^parameter 'page\/size': must be <= 50$/);
  rejects({ page: { size: 1.5 } }, /^parameter 'page\/size' must be an integer, got the number 1.5$/);
  rejects({ page: {} }, /^missing required parameter 'page\/size'$/);
  rejects(
    { page: { size: 2, extra: 1 } },
    /^unknown parameter 'page\/extra'; the tool's schema allows no other properties here$/,
  );
});

it('keeps the one-level messages: type, enum, null as absent', () => {
  rejects({ mode: 'c' }, /^parameter 'mode' must be one of "a", "b", got "c"$/);
  rejects({ tags: 'x' }, /^parameter 'tags' must be an array, got string "x"$/);
  assert.deepEqual(validateParams(specs, { mode: null }), { mode: 'a' });
});

it('puts the extra keywords into the advertised JSON Schema', () => {
  assert.deepEqual(toJsonSchema(specs).properties['tags'], {
    type: 'array',
    items: { type: 'string', pattern: '^[a-z]+$' },
    maxItems: 3,
  });
});

it('checks a list without `schema` keywords (the built-in tools) without ajv, with the same result as ajv', () => {
  // `schema: {}` adds no keyword but sends the list through ajv: the two paths must agree on every input.
  const plain: ParamSpec[] = [
    { name: 'query', type: 'string', required: true, maxLength: 5 },
    { name: 'mode', type: 'string', enum: ['keyword', 'semantic'] },
    { name: 'limit', type: 'integer', enum: [1, 2, 3] },
    { name: 'ratio', type: 'number' },
    { name: 'on', type: 'boolean' },
    { name: 'tags', type: 'array' },
    { name: 'filters', type: 'object', properties: { source: { type: 'string' } } },
    { name: 'a/b~c', type: 'string', maxLength: 2 },
  ];
  const viaAjv = plain.map((p) => ({ ...p, schema: {} }));
  const outcome = (list: ParamSpec[], input: unknown): string => {
    try {
      return JSON.stringify(validateParams(list, input));
    } catch (error) {
      return (
        `${(error as KbctxError).code}: ${(error as Error).message} ` +
        `${JSON.stringify((error as KbctxError).details)}`
      );
    }
  };
  const inputs: Record<string, unknown>[] = [
    { query: 'ok' },
    { query: 'toolong' },
    { query: '😀😀😀😀😀' }, // 10 UTF-16 units, 5 code points: within maxLength 5
    { query: '😀😀😀😀😀😀' },
    { query: 7 },
    { query: 'q', mode: 'hybrid' },
    { query: 'q', mode: 5 }, // a string's enum is checked before its type
    { query: 'q', mode: 'x'.repeat(2_000_000) },
    { query: 'q', limit: 2 },
    { query: 'q', limit: 4 },
    { query: 'q', limit: 2.5 },
    { query: 'q', limit: '2' },
    { query: 'q', limit: Infinity },
    { query: 'q', ratio: 0.5 },
    { query: 'q', ratio: '0.5' },
    { query: 'q', on: 'yes' },
    { query: 'q', tags: {} },
    { query: 'q', tags: ['a'] },
    { query: 'q', filters: [] },
    { query: 'q', filters: { source: 3 } },
    { query: 'q', 'a/b~c': 'abc' },
    { query: 'q', limit: 9, on: 1 }, // the first failing parameter in list order
    { query: 'q', unknown: 1 },
  ];
  for (const input of inputs)
    assert.equal(outcome(plain, input), outcome(viaAjv, input), JSON.stringify(input).slice(0, 80));
});
