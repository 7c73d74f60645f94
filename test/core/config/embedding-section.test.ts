// ADR 0178: `[embedding]` keeps the keys every provider shares; each embedder plugin owns and checks
// its provider's other keys when the config loads, an error naming the key path and the plugin.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { it } from 'node:test';
import '../../../registry/bundled.ts'; // the embedder plugins owning their keys
import { parseConfig } from '../../../core/config/load-config.ts';
import { configJsonSchema } from '../../../core/config/json-schema.ts';
import { KbctxError } from '../../../core/domain/errors.ts';
import { REPO_ROOT } from '../../helpers/workspace.ts';
import { joinedRegExp } from '../../helpers/joined-regexp.ts';

const where = { file: 'config/kbctx.toml', cwd: '/work', env: {} };
const load = (toml: string) => parseConfig(toml, where);

function configError(toml: string): string {
  try {
    load(toml);
  } catch (error) {
    assert.ok(error instanceof KbctxError && error.code === 'config_error', String(error));
    return error.message;
  }
  assert.fail('expected a config error');
}

it("a bad value of a provider's key is refused when the config loads, naming the key path and the plugin", () => {
  assert.equal(
    configError('[embedding]\nprovider = "openai"\nmodel = "m"\ndims = 8\ntimeout_secs = 0\n'),
    "config/kbctx.toml: embedding.timeout_secs must be greater than 0 (checked by plugin 'embedder-openai')",
  );
  assert.equal(
    configError('[embedding]\nprovider = "transformers"\nmodel_path = "m"\npooling = "max"\n'),
    'config/kbctx.toml: embedding.pooling must be one of "mean", "cls", got string "max" ' +
      "(checked by plugin 'embedder-transformers')",
  );
  assert.match(
    configError('[embedding]\nprovider = "ollama"\nmodel = "m"\ndims = 8\nurl = 11434\n'),
    joinedRegExp(
      /^config\/kbctx\.toml: embedding\.url must be a string, got number 11434 /,
      /\(checked by plugin 'embedder-ollama'\)$/,
    ),
  );
});

it('a key another provider owns is not one of this provider\'s; under "disabled" any provider\'s key may stay', () => {
  assert.match(
    configError('[embedding]\nprovider = "openai"\nmodel = "m"\ndims = 8\nmodel_path = "x"\n'),
    /^config\/kbctx\.toml: embedding\.model_path is not a known key/,
  );
  assert.equal(
    load('[embedding]\nprovider = "disabled"\nmodel_path = "x"\nmax_retries = 2\n').embedding.provider,
    'disabled',
  );
  assert.match(configError('[embedding]\nprovider = "disabled"\nmodle = "x"\n'), /embedding\.modle is not a known key/);
});

it("the provider receives its keys as its plugin made them, with defaults; the shared keys stay the kernel's", () => {
  const openai = load(
    '[embedding]\nprovider = "openai"\nmodel = "m"\ndims = 8\nbase_url = "http://127.0.0.1:1/v1"\n',
  ).embedding;
  assert.deepEqual(openai.extra, {
    baseUrl: 'http://127.0.0.1:1/v1',
    apiKeyEnv: 'OPENAI_API_KEY',
    maxRetries: 5,
    timeoutSecs: 30,
  });
  assert.deepEqual([openai.model, openai.dims, openai.batchSize, openai.concurrency], ['m', 8, 64, 2]);
  // Context Harness writes max_retries and timeout_secs for every provider, local included.
  assert.equal(
    load('[embedding]\nprovider = "local"\nbatch_size = 64\nmax_retries = 5\ntimeout_secs = 30\n').embedding.provider,
    'local',
  );
});

it("config/kbctx.schema.json describes each provider's keys (the embedder plugins' schemas)", () => {
  const committed = JSON.parse(readFileSync(path.join(REPO_ROOT, 'config', 'kbctx.schema.json'), 'utf8')) as {
    properties: {
      embedding: {
        properties: Record<string, unknown>;
        allOf: { if: { properties: { provider: { const: string } } } }[];
      };
    };
  };
  const embedding = committed.properties.embedding;
  for (const key of [
    'provider',
    'model',
    'dims',
    'batch_size',
    'api_key_env',
    'max_retries',
    'model_path',
    'pooling',
    'threads',
  ])
    assert.ok(key in embedding.properties, key);
  assert.deepEqual(embedding.allOf.map((c) => c.if.properties.provider.const).sort(), [
    'fastembed',
    'local',
    'ollama',
    'openai',
    'transformers',
  ]); // fastembed: Context Harness's name for local (issue 31)
  assert.deepEqual(configJsonSchema()['properties'], (committed as unknown as Record<string, unknown>)['properties']);
});
