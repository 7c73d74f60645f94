// The transformers embedder end to end (issue 25): the real CLI with `[embedding] provider =
// "transformers"` on a tiny ONNX model built here (test/helpers/tiny-transformer-model.ts), so no
// weights are downloaded: sync embeds, semantic search finds a synonym keyword search cannot, hybrid
// ranks it first, another model makes the vectors stale and `embed pending` rebuilds them, an
// incomplete folder is exit 3 naming what is missing, and doctor checks the model.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { writeTinyModel } from '../helpers/tiny-transformer-model.ts';
import { Workspace } from '../helpers/workspace.ts';
import { joinedRegExp } from '../helpers/joined-regexp.ts';

interface SearchJson {
  results: { source_id: string; score: number }[];
}

describe('kbctx with the transformers embedder (tiny ONNX model)', () => {
  const ws = new Workspace('kbctx-transformers-');
  const config = (modelPath: string): void =>
    ws.config(
      `[embedding]\nprovider = "transformers"\nmodel_path = "${modelPath}"\nbatch_size = 2\n` +
        `[connectors.filesystem.docs]\nroot = "docs"\n`,
    );
  const search = async (query: string, mode: string): Promise<string[]> => {
    const r = await ws.kbctx(['--json', 'search', query, '--mode', mode]);
    assert.equal(r.code, 0, r.stderr);
    return (JSON.parse(r.stdout) as SearchJson).results.map((h) => h.source_id);
  };

  before(async () => {
    await writeTinyModel(ws.path('models/tiny'));
    await writeTinyModel(ws.path('models/tiny-v2'), { seed: 99, dims: 12 });
    ws.write('docs/cars.md', '# Cars\n\nThe car engine needs oil before driving.\n');
    ws.write('docs/ocean.md', '# Ocean\n\nWaves on the sea coast at high tide.\n');
    ws.write('docs/bread.md', '# Bread\n\nBaking bread with flour and yeast in the oven.\n');
    ws.write('docs/stars.md', '# Stars\n\nA telescope shows planets and stars of the galaxy.\n');
    config('models/tiny');
  });
  after(() => ws.cleanup());

  it('sync embeds what it wrote with the model from the folder', async () => {
    const sync = await ws.kbctx(['sync', 'all']);
    assert.equal(sync.code, 0, sync.stderr);
    assert.match(sync.stderr, /embedded 4 chunk\(s\) with transformers:tiny:[0-9a-f]{8}/);
  });

  it('semantic search finds a synonym keyword search cannot; hybrid ranks it first', async () => {
    assert.deepEqual(await search('automobile', 'keyword'), []);
    assert.equal((await search('automobile', 'semantic'))[0], 'cars.md');
    assert.equal((await search('marine', 'semantic'))[0], 'ocean.md');
    assert.equal((await search('astronomy telescope', 'hybrid'))[0], 'stars.md');
    assert.equal((await search('dough oven', 'hybrid'))[0], 'bread.md');
  });

  it('another model makes the stored vectors stale; embed pending rebuilds them', async () => {
    config('models/tiny-v2');
    const stale = await ws.kbctx(['search', 'automobile', '--mode', 'semantic']);
    assert.notEqual(stale.code, 0);
    assert.match(stale.stderr, /needs embeddings from transformers:tiny-v2:[0-9a-f]{8}.*kbctx embed pending/);
    const embed = await ws.kbctx(['embed', 'pending']);
    assert.equal(embed.code, 0, embed.stderr);
    assert.match(embed.stdout, /embedded 4 of 4 pending chunk\(s\) with transformers:tiny-v2:/);
    assert.equal((await search('vehicle', 'semantic'))[0], 'cars.md');
    const stats = await ws.kbctx(['stats']);
    assert.match(stats.stdout, /current\s+transformers:tiny-v2:[0-9a-f]{8} \(12 dims\): 4/);
  });

  it('doctor runs the model once', async () => {
    const doctor = await ws.kbctx(['doctor']);
    assert.match(doctor.stdout, /embeddings\s+transformers:tiny-v2:[0-9a-f]{8}: answered \(12 dims\)/);
  });

  it('an incomplete model folder: exit 3 naming the missing files; doctor fails the check', async () => {
    ws.write('models/half/config.json', '{}');
    config('models/half');
    const embed = await ws.kbctx(['embed', 'pending']);
    assert.equal(embed.code, 3, embed.stderr);
    assert.match(embed.stderr, /models\/half is incomplete: missing tokenizer\.json, onnx\/model\.onnx/);
    const doctor = await ws.kbctx(['doctor']);
    assert.match(
      doctor.stdout,
      joinedRegExp(
        /FAIL {2}embeddings .*\[embedding\] model_path .*models\/half is /,
        /incomplete: missing tokenizer\.json, onnx\/model\.onnx/,
      ),
    );
    config('models/none');
    const missing = await ws.kbctx(['search', 'car', '--mode', 'semantic']);
    assert.equal(missing.code, 3);
    assert.match(missing.stderr, /models\/none is not a folder/);
  });
});
