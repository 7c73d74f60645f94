// Models by name end to end (issue 31): the real CLI with HF_ENDPOINT pointed at a stand-in hub
// (test/helpers/stand-in-hub.ts, real HTTP on 127.0.0.1) serving the tiny ONNX model the transformers
// tests build. The first sync fetches with progress, the second run makes no request, offline with a
// cache works and without one exits 3 naming the pull command, a corrupted file is refused and not
// cached, a pull killed (SIGKILL) mid-download then rerun resumes with Range and ends with a working
// model; `models list|rm`, doctor; a Context Harness config (`model = "bge-small-en-v1.5"`) syncs,
// embeds and searches.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { after, before, describe, it } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { startStandInHub, type StandInHub } from '../helpers/stand-in-hub.ts';
import { writeTinyModel } from '../helpers/tiny-transformer-model.ts';
import { KBCTX_BIN, Workspace } from '../helpers/workspace.ts';

interface SearchJson {
  results: { source_id: string }[];
}

describe('models by name (stand-in hub)', { timeout: 180_000 }, () => {
  const ws = new Workspace('kbctx-models-e2e-');
  let hub: StandInHub;
  const env = (extra: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv => ({
    HF_ENDPOINT: hub.url,
    HF_TOKEN: '',
    KBCTX_MODELS_DIR: ws.path('cache'),
    KBCTX_OFFLINE: '',
    HF_HUB_OFFLINE: '',
    KBCTX_PROGRESS_INTERVAL_MS: '20',
    ...extra,
  });
  const config = (embedding: string): void =>
    ws.config(`[embedding]\n${embedding}\nbatch_size = 2\n[connectors.filesystem.docs]\nroot = "docs"\n`);
  const semantic = async (query: string, extra: NodeJS.ProcessEnv = {}): Promise<string[]> => {
    const r = await ws.kbctx(['--json', 'search', query, '--mode', 'semantic'], { env: env(extra) });
    assert.equal(r.code, 0, r.stderr);
    return (JSON.parse(r.stdout) as SearchJson).results.map((h) => h.source_id);
  };

  before(async () => {
    await writeTinyModel(ws.path('models/tiny'));
    await writeTinyModel(ws.path('models/tiny-384'), { dims: 384 });
    hub = await startStandInHub();
    for (const id of ['test/tiny', 'test/corrupt', 'test/stall', 'test/shared'])
      await hub.addFolder(id, ws.path('models/tiny'));
    await hub.addFolder('Xenova/bge-small-en-v1.5', ws.path('models/tiny-384'));
    await hub.addFolder('Xenova/multilingual-e5-small', ws.path('models/tiny-384'));
    hub.file('test/tiny', 'onnx/model.onnx').slow = { chunk: 256, delayMs: 15 };
    hub.file('test/shared', 'onnx/model.onnx').stall = true;
    hub.file('test/corrupt', 'onnx/model.onnx').corrupt = true;
    hub.file('test/stall', 'onnx/model.onnx').stall = true;
    ws.write('docs/cars.md', '# Cars\n\nThe car engine needs oil before driving.\n');
    ws.write('docs/ocean.md', '# Ocean\n\nWaves on the sea coast at high tide.\n');
    ws.write('docs/stars.md', '# Stars\n\nA telescope shows planets and stars of the galaxy.\n');
  });
  after(async () => {
    await hub.close();
    ws.cleanup();
  });

  it('the first sync fetches the model with progress lines; the second run makes no request', async () => {
    config('provider = "transformers"\nmodel = "test/tiny"');
    const sync = await ws.kbctx(['sync', 'all'], { env: env() });
    assert.equal(sync.code, 0, sync.stderr);
    assert.match(sync.stderr, /models: fetching test\/tiny \(4 file\(s\), [\d.]+ KiB\)/);
    assert.match(
      sync.stderr,
      /models: test\/tiny [\d.]+ (B|KiB)\/[\d.]+ KiB \(\d+%\)\s+[\d.]+ (B|KiB)\/s\s+ETA /,
      'a progress line while not a terminal',
    );
    assert.match(sync.stderr, /embedded 3 chunk\(s\) with transformers:test\/tiny:[0-9a-f]{8}/);
    const seen = hub.requests.length;
    ws.write('docs/bread.md', '# Bread\n\nBaking bread with flour and yeast in the oven.\n');
    const again = await ws.kbctx(['sync', 'all'], { env: env() });
    assert.equal(again.code, 0, again.stderr);
    assert.match(again.stderr, /embedded 1 chunk\(s\)/);
    assert.equal((await semantic('automobile'))[0], 'cars.md');
    assert.equal(hub.requests.length, seen, 'no request once cached');
  });

  it('offline with the cache works; offline without it exits 3 naming the pull command', async () => {
    const seen = hub.requests.length;
    assert.equal((await semantic('marine', { KBCTX_OFFLINE: '1' }))[0], 'ocean.md');
    const missing = await ws.kbctx(['search', 'car', '--mode', 'semantic'], {
      env: env({ HF_HUB_OFFLINE: '1', KBCTX_MODELS_DIR: ws.path('empty-cache') }),
    });
    assert.equal(missing.code, 3, missing.stderr);
    assert.match(missing.stderr, /model "test\/tiny" is not in the model cache .*`kbctx models pull test\/tiny`/);
    assert.equal(hub.requests.length, seen, 'offline touches no network');
  });

  it('a corrupted file is refused and not cached', async () => {
    const pull = await ws.kbctx(['models', 'pull', 'test/corrupt'], { env: env() });
    assert.notEqual(pull.code, 0);
    assert.match(
      pull.stderr,
      /refused .*onnx\/model\.onnx: the download does not match the hub's announcement \(sha256 /,
    );
    assert.deepEqual(readdirSync(ws.path('cache/test/corrupt/onnx')), []);
    const list = await ws.kbctx(['--json', 'models', 'list'], { env: env() });
    assert.deepEqual(
      (JSON.parse(list.stdout) as { models: { id: string }[] }).models.map((m) => m.id),
      ['test/tiny'],
    );
  });

  it('a pull killed (SIGKILL) mid-download, then rerun: resumed with Range, a working model', async () => {
    const child = spawn(process.execPath, [KBCTX_BIN, 'models', 'pull', 'test/stall'], {
      cwd: ws.dir,
      env: { ...process.env, KBCTX_CONFIG: '', ...env() },
      stdio: 'ignore',
    });
    const part = ws.path('cache/test/stall/onnx/model.onnx.part');
    for (let i = 0; i < 300 && !(existsSync(part) && statSync(part).size > 0); i++) await sleep(50);
    assert.ok(statSync(part).size > 0, 'half the file arrived');
    child.kill('SIGKILL');
    await new Promise((resolve) => child.once('exit', resolve));
    hub.release('test/stall');
    config('provider = "transformers"\nmodel = "test/stall"');
    assert.equal(
      (await ws.kbctx(['search', 'car', '--mode', 'semantic'], { env: env({ KBCTX_OFFLINE: '1' }) })).code,
      3,
      'the killed download left no model',
    );
    const rerun = await ws.kbctx(['models', 'pull', 'test/stall'], { env: env() });
    assert.equal(rerun.code, 0, rerun.stderr);
    assert.ok(
      hub.requests.some(
        (r) => r.path === '/lfs/test/stall/onnx/model.onnx' && r.status === 206 && /^bytes=\d+-$/.test(r.range ?? ''),
      ),
      'resumed with Range',
    );
    const embed = await ws.kbctx(['embed', 'pending'], { env: env({ KBCTX_OFFLINE: '1' }) });
    assert.equal(embed.code, 0, embed.stderr);
    assert.equal((await semantic('vehicle', { KBCTX_OFFLINE: '1' }))[0], 'cars.md');
  });

  it('two processes fetching one model: the second waits for the first (one download)', async () => {
    const pull = () =>
      spawn(process.execPath, [KBCTX_BIN, 'models', 'pull', 'test/shared'], {
        cwd: ws.dir,
        env: { ...process.env, KBCTX_CONFIG: '', ...env() },
        stdio: ['ignore', 'ignore', 'pipe'],
      });
    const exited = (child: ReturnType<typeof pull>) =>
      new Promise<number | null>((resolve) => child.once('exit', resolve));
    const first = pull();
    const firstExit = exited(first);
    const part = ws.path('cache/test/shared/onnx/model.onnx.part');
    for (let i = 0; i < 300 && !existsSync(part); i++) await sleep(50);
    const second = pull();
    const secondExit = exited(second);
    let said = '';
    second.stderr.setEncoding('utf8');
    await new Promise<void>((resolve) =>
      second.stderr.on(
        'data',
        (d: string) => ((said += d), /waiting for another kbctx process/.test(said) && resolve()),
      ),
    );
    assert.match(said, /waiting for another kbctx process \(pid \d+\) fetching test\/shared/);
    hub.release('test/shared');
    assert.equal(await firstExit, 0);
    assert.equal(await secondExit, 0);
    const gets = hub.requests.filter((r) => r.path === '/lfs/test/shared/onnx/model.onnx' && r.method === 'GET');
    assert.deepEqual(
      gets.map((r) => r.range === null),
      [true, false],
      'one download (its stalled body resumed once), none by the second process',
    );
  });

  it(
    '[models] cache_dir; models list shows id, size, files and ' +
      'last use; rm removes; doctor reports the cache and the model',
    async () => {
      ws.config('[models]\ncache_dir = "cache"\n[embedding]\nprovider = "transformers"\nmodel = "test/stall"\n');
      const viaConfig = await ws.kbctx(['--json', 'models', 'list'], { env: env({ KBCTX_MODELS_DIR: '' }) });
      assert.equal(
        (JSON.parse(viaConfig.stdout) as { cache_dir: string }).cache_dir,
        ws.path('cache'),
        '[models] cache_dir, relative to the config root',
      );
      const list = await ws.kbctx(['models', 'list'], { env: env() });
      assert.match(list.stdout, /Id\s+Size\s+Files\s+Last used/);
      assert.match(list.stdout, /test\/tiny\s+[\d.]+ KiB\s+4\s+\d{4}-\d\d-\d\d \d\d:\d\d:\d\d/);
      const doctor = await ws.kbctx(['doctor'], { env: env() });
      assert.match(doctor.stdout, /models\s+cache .*cache: 3 model\(s\)/);
      assert.match(doctor.stdout, /models\s+test\/stall: in the cache/);
      const rm = await ws.kbctx(['models', 'rm', 'test/shared'], { env: env() });
      assert.equal(rm.code, 0, rm.stderr);
      assert.equal(existsSync(ws.path('cache/test/shared')), false);
      const again = await ws.kbctx(['models', 'rm', 'test/shared'], { env: env() });
      assert.notEqual(again.code, 0);
      assert.match(again.stderr, /not in the cache/);
    },
  );

  it(
    'a Context Harness config (provider "local", model = ' + '"bge-small-en-v1.5"): sync, embed, semantic search',
    async () => {
      config('provider = "local"\nmodel = "bge-small-en-v1.5"\ndims = 384');
      ws.write('docs/guitar.md', '# Guitar\n\nChords and a melody for the song.\n');
      const sync = await ws.kbctx(['sync', 'all'], { env: env() });
      assert.equal(sync.code, 0, sync.stderr);
      assert.match(sync.stderr, /models: fetching Xenova\/bge-small-en-v1\.5/);
      assert.match(sync.stderr, /embedded \d+ chunk\(s\) with transformers:Xenova\/bge-small-en-v1\.5:[0-9a-f]{8}/);
      const embed = await ws.kbctx(['embed', 'pending'], { env: env() });
      assert.equal(embed.code, 0, embed.stderr);
      // bge pools the first token (cls), which the tiny one-layer model cannot make meaningful: the search runs and
      // ranks every document.
      assert.equal((await semantic('music')).length, 5);
      config('provider = "local"\nmodel = "bge-small-en-v1.5"\ndims = 768');
      const wrong = await ws.kbctx(['search', 'car', '--mode', 'semantic'], { env: env() });
      assert.equal(wrong.code, 3, wrong.stderr);
      assert.match(
        wrong.stderr,
        /dims = 768 disagrees with model "bge-small-en-v1\.5", which makes 384-dimension vectors/,
      );
    },
  );

  it(
    'provider "fastembed", model = "multilingual-e5-small" (mean pooling, ' +
      'query:/passage: prefixes): semantic search finds the synonym',
    async () => {
      config('provider = "fastembed"\nmodel = "multilingual-e5-small"');
      const embed = await ws.kbctx(['embed', 'pending'], { env: env() });
      assert.equal(embed.code, 0, embed.stderr);
      assert.match(embed.stdout, /embedded 5 of 5 pending chunk\(s\) with transformers:Xenova\/multilingual-e5-small:/);
      assert.equal((await semantic('automobile'))[0], 'cars.md');
      assert.equal((await semantic('music'))[0], 'guitar.md');
    },
  );
});
