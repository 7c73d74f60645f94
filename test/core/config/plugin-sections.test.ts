// ADR 0164: the first-party sections come from their plugins' JSON Schemas (not core/config/schema.ts),
// checked without ajv when the schema keeps to the subset, and in the loader's wording.
import assert from 'node:assert/strict';
import { it } from 'node:test';
import { BUNDLED_PLUGINS } from '../../../registry/bundled.ts';
import { check, inSubset } from '../../../core/config/json-check.ts';
import { bundledSections } from '../../../core/config/plugin-sections.ts';

it("[server] is transport-http's and each built-in connector type its plugin's", () => {
  const owned = bundledSections();
  assert.equal(owned.sections.get('server')?.plugin, 'transport-http');
  assert.equal(owned.sections.get('extensions')?.plugin, 'extensions', '[extensions] left the kernel (ADR 0250)');
  assert.deepEqual(Object.fromEntries([...owned.connectors].map(([type, s]) => [type, s.plugin])), {
    filesystem: 'connector-filesystem',
    git: 'connector-git',
    s3: 'connector-s3',
    script: 'lua-bridge',
  });
  assert.deepEqual(Object.fromEntries([...owned.stores].map(([engine, s]) => [engine, s.plugin])), {
    sqlite: 'store-sqlite',
    postgres: 'store-postgres',
    lancedb: 'store-lancedb',
  });
});

it('every bundled section schema is checked without ajv', () => {
  for (const plugin of BUNDLED_PLUGINS) {
    const { connectorConfigs, configSections, embedderConfigs, storeConfigs } = plugin;
    for (const sections of [connectorConfigs, configSections, embedderConfigs, storeConfigs])
      for (const [name, section] of Object.entries(sections ?? {}))
        assert.ok(inSubset(section.schema), `${plugin.name}: ${name} stays in json-check.ts's subset`);
  }
});

it(
  'the subset applies defaults, keeps other keys unless ' +
    'additionalProperties is false, and words errors as the loader',
  () => {
    const open = { type: 'object', properties: { n: { type: 'integer', minimum: 1, default: 3 } } };
    assert.deepEqual(check(open, { other: 'x' }, ['connectors', 't', 'a']), { other: 'x', n: 3 });
    const closed = {
      type: 'object',
      properties: { n: { type: 'integer', minimum: 1 } },
      required: ['n'],
      additionalProperties: false,
    };
    assert.throws(() => check(closed, {}, ['s']), { message: 'is required', path: ['s', 'n'] });
    assert.throws(() => check(closed, { n: 0 }, ['s']), { message: 'must be at least 1', path: ['s', 'n'] });
    assert.throws(() => check(closed, { n: 1, m: 2 }, ['s']), { path: ['s', 'm'] });
    assert.equal(inSubset({ type: 'string', pattern: '^a' }), false, 'outside the subset: ajv');
    assert.equal(inSubset({ properties: { n: { type: 'integer' } } }), false, 'a table without its type: ajv');
  },
);
