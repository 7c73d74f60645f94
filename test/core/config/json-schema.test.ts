// config/kbctx.schema.json is generated from core/config/schema.ts and kept current; it accepts the
// example config and the Context Harness fixture, and rejects what the loader rejects (unknown keys,
// out-of-range numbers, wrong types), checked with ajv as an editor would.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { it } from 'node:test';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { parse } from 'smol-toml';
import '../../../registry/bundled.ts';
import { configJsonSchema } from '../../../core/config/json-schema.ts';
import { REPO_ROOT } from '../../helpers/workspace.ts';

const committed = JSON.parse(readFileSync(path.join(REPO_ROOT, 'config', 'kbctx.schema.json'), 'utf8')) as Record<
  string,
  unknown
>;
const validate = new Ajv2020({ allErrors: true, strict: false }).compile(committed);
const check = (toml: string): string[] =>
  validate(parse(toml)) ? [] : (validate.errors ?? []).map((e) => `${e.instancePath} ${e.message ?? ''}`);

it('is the schema generated from core/config/schema.ts (run `npm run config:schema` after changing it)', () => {
  assert.deepEqual(committed, JSON.parse(JSON.stringify(configJsonSchema())));
});

it('accepts the example config, the built-in default and the Context Harness fixture', () => {
  for (const file of [
    'config/kbctx.example.toml',
    'config/kbctx.default.toml',
    'test/fixtures/ctx-workspace/.ctx/config.toml',
  ]) {
    assert.deepEqual(check(readFileSync(path.join(REPO_ROOT, file), 'utf8')), [], file);
  }
});

it('rejects an unknown key, a number out of range, a wrong type and a bad enum value, naming the path', () => {
  assert.match(check('[db]\npaht = "x"\n').join(), /\/db must NOT have additional properties/);
  assert.match(check('[retrieval]\nhybrid_alpha = 2\n').join(), /\/retrieval\/hybrid_alpha must be <= 1/);
  assert.match(check('[server]\nworkers = "two"\n').join(), /\/server\/workers must be integer/);
  assert.match(
    check('[retrieval]\nfusion = "max"\n').join(),
    /\/retrieval\/fusion must be equal to one of the allowed values/,
  );
  assert.match(
    check('[connectors.filesystem.docs]\ninclude_globs = ["*.md"]\n').join(),
    /\/connectors\/filesystem\/docs must have required property 'root'/,
  );
  assert.deepEqual(check('[sync]\ninterval = "5m"\n[server]\nwatch = "poll"\n'), []);
});
