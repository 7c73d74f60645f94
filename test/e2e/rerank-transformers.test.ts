// The rerank plugin with provider = "transformers", offline: a tiny cross-encoder built by the test
// (test/helpers/tiny-cross-encoder.ts) run in a worker thread by the real CLI, from `model_path` and by hub id
// through the models plugin's cache (a stand-in hub on 127.0.0.1).
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startStandInHub, type StandInHub } from '../helpers/stand-in-hub.ts';
import { writeTinyCrossEncoder } from '../helpers/tiny-cross-encoder.ts';
import { Workspace } from '../helpers/workspace.ts';

interface Hit {
  source_id: string;
  score: number;
  explain?: { fused_rank?: number; rerank_score?: number | null; rerank_note?: string };
}

describe('a cross-encoder through the transformers provider', { timeout: 180_000 }, () => {
  const ws = new Workspace('kbctx-rerank-tf-');
  let hub: StandInHub;
  const env = (): NodeJS.ProcessEnv => ({
    HF_ENDPOINT: hub.url,
    HF_TOKEN: '',
    KBCTX_MODELS_DIR: ws.path('cache'),
    KBCTX_OFFLINE: '',
    HF_HUB_OFFLINE: '',
  });
  const configure = (rerank: string): void =>
    // A generous budget: the first search loads the model in the worker, on a busy machine.
    ws.config(
      `[db]\npath = "data/index.sqlite"\n[connectors.filesystem.docs]\n` +
        `root = "docs"\n[rerank]\nbudget_ms = 9000\n${rerank}\n`,
    );
  const search = async (args: string[] = []): Promise<Hit[]> => {
    const r = await ws.kbctx(['search', 'bread', '--json', '--explain', ...args], { env: env() });
    assert.equal(r.code, 0, r.stderr);
    return (JSON.parse(r.stdout) as { results: Hit[] }).results;
  };

  before(async () => {
    // Keyword order: a.md (most "bread"), b.md, c.md; the model weighs only "oven": c.md, b.md, a.md.
    ws.write('docs/a.md', 'bread bread bread loaf\n');
    ws.write('docs/b.md', 'bread bread oven\n');
    ws.write('docs/c.md', 'bread oven oven oven\n');
    await writeTinyCrossEncoder(ws.path('models/ce'), 'bread loaf oven'.split(' '), { oven: 1 });
    hub = await startStandInHub();
    await hub.addFolder('test/tiny-ce', ws.path('models/ce'));
    configure('provider = "transformers"\nmodel_path = "models/ce"');
    const sync = await ws.kbctx(['sync', 'all'], { env: env() });
    assert.equal(sync.code, 0, sync.stderr);
  });
  after(async () => {
    await hub.close();
    ws.cleanup();
  });

  it('model_path: the fused order reversed by the model scores, both ranks explained', async () => {
    assert.deepEqual(
      (await search(['--no-rerank'])).map((h) => h.source_id),
      ['a.md', 'b.md', 'c.md'],
    );
    const hits = await search();
    assert.deepEqual(
      hits.map((h) => [h.source_id, h.explain?.fused_rank]),
      [
        ['c.md', 3],
        ['b.md', 2],
        ['a.md', 1],
      ],
    );
    // sigmoid(number of "oven" words): the model's scores, run offline in the worker
    assert.deepEqual(
      hits.map((h) => h.explain?.rerank_score),
      [0.952574, 0.731059, 0.5],
    );
  });

  it('a hub id: fetched into the model cache (models plugin) on the first search', async () => {
    configure('provider = "transformers"\nmodel = "test/tiny-ce"');
    const hits = await search(['--limit', '1']);
    assert.deepEqual(
      hits.map((h) => h.source_id),
      ['c.md'],
    );
    assert.ok(hub.requests.some((r) => r.path.endsWith('/onnx/model.onnx')));
  });

  it('without model or model_path: a config error naming the key (exit 3)', async () => {
    configure('provider = "transformers"');
    const r = await ws.kbctx(['search', 'bread'], { env: env() });
    assert.equal(r.code, 3, r.stderr);
    assert.match(r.stderr, /rerank\.model is needed with provider = "transformers"/);
  });
});
