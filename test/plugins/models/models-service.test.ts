// The models service against the stand-in hub (real HTTP on 127.0.0.1): a fetch lays out the files
// transformers.js reads and a manifest, verified; a second call makes no request; a corrupted file is
// refused and not cached; a body cut off mid-way resumes with Range; offline never touches the network.
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readdirSync, rmSync, writeFileSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { featureExtractionFiles, onnxFileName } from '../../../plugins/models/api.ts';
import { createModelsService } from '../../../plugins/models/models-service.ts';
import { readManifest } from '../../../plugins/models/model-manifest.ts';
import { startStandInHub, type StandInHub } from '../../helpers/stand-in-hub.ts';
import { writeTinyModel } from '../../helpers/tiny-transformer-model.ts';

const FILES = featureExtractionFiles(onnxFileName('fp32'));
const isError = (code: string, pattern: RegExp) => (e: unknown) =>
  (e as { code?: string }).code === code && pattern.test((e as Error).message);

describe('models service (stand-in hub)', () => {
  const dir = mkdtempSync(join(tmpdir(), 'kbctx-models-'));
  let hub: StandInHub;
  const service = (env: NodeJS.ProcessEnv = {}, cacheDir = join(dir, 'cache')) =>
    createModelsService(() => ({ env: { HF_ENDPOINT: hub.url, ...env }, cacheDir }));
  const quiet = { write: () => undefined, interactive: false };

  before(async () => {
    await writeTinyModel(join(dir, 'tiny'));
    hub = await startStandInHub();
    for (const id of ['test/tiny', 'test/corrupt', 'test/cut', 'test/offline', 'test/gated'])
      await hub.addFolder(id, join(dir, 'tiny'));
    hub.file('test/corrupt', 'onnx/model.onnx').corrupt = true;
    hub.file('test/cut', 'onnx/model.onnx').stopTimes = 1;
  });
  after(async () => {
    await hub.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('fetches the files and a manifest; the LFS file verified by sha256; a second call makes no request', async () => {
    const folder = await service().fetch('test/tiny', FILES, quiet);
    assert.equal(folder, join(dir, 'cache', 'test', 'tiny'));
    for (const file of FILES.required) assert.ok(existsSync(join(folder, file)), file);
    const manifest = readManifest(folder);
    assert.equal(manifest?.id, 'test/tiny');
    assert.match(manifest?.files.find((f) => f.path === 'onnx/model.onnx')?.sha256 ?? '', /^[0-9a-f]{64}$/);
    assert.ok(
      hub.requests.some((r) => r.path === '/lfs/test/tiny/onnx/model.onnx' && r.status === 200),
      'followed the redirect',
    );
    const before = hub.requests.length;
    assert.equal(await service().fetch('test/tiny', FILES, quiet), folder);
    assert.equal(service({ KBCTX_OFFLINE: '1' }).cached('test/tiny', FILES), folder);
    assert.equal(hub.requests.length, before);
  });

  it('a corrupted file is refused and nothing is cached', async () => {
    await assert.rejects(
      service().fetch('test/corrupt', FILES, quiet),
      isError(
        'upstream_error',
        /does not match the hub's announcement \(sha256 [0-9a-f]{64}, announced [0-9a-f]{64}\)/,
      ),
    );
    const folder = join(dir, 'cache', 'test', 'corrupt');
    assert.equal(existsSync(join(folder, 'onnx', 'model.onnx')), false);
    assert.deepEqual(readdirSync(join(folder, 'onnx')), [], 'no .part left');
    assert.equal(readManifest(folder), null);
    assert.equal(service().cached('test/corrupt', FILES), null);
  });

  it('a body cut off mid-way resumes with a Range request', async () => {
    const folder = await service().fetch('test/cut', FILES, quiet);
    assert.ok(existsSync(join(folder, 'onnx', 'model.onnx')));
    const ranged = hub.requests.filter((r) => r.path === '/lfs/test/cut/onnx/model.onnx' && r.status === 206);
    assert.equal(ranged.length, 1);
    assert.match(ranged[0]?.range ?? '', /^bytes=\d+-$/);
  });

  it('offline: the network is never touched; a missing model is a config error naming the pull command', async () => {
    const before = hub.requests.length;
    for (const env of [{ KBCTX_OFFLINE: '1' }, { HF_HUB_OFFLINE: 'true' }]) {
      await assert.rejects(
        service(env).fetch('test/offline', FILES, quiet),
        isError('config_error', /not in the model cache .*kbctx models pull test\/offline/),
      );
    }
    assert.equal(hub.requests.length, before);
  });

  it(
    'a stale lock (its process gone) is taken over; a ' + 'partial folder without its manifest is not a model',
    async () => {
      const cache = join(dir, 'stale');
      mkdirSync(join(cache, 'test', 'tiny'), { recursive: true });
      writeFileSync(join(cache, 'test', 'tiny.lock'), '2147483646');
      writeFileSync(join(cache, 'test', 'tiny', 'config.json'), '{}');
      assert.equal(service({}, cache).cached('test/tiny', FILES), null);
      assert.ok(await service({}, cache).fetch('test/tiny', FILES, quiet));
      assert.equal(existsSync(join(cache, 'test', 'tiny.lock')), false);
    },
  );

  it('HF_TOKEN goes to the hub as a Bearer header', async () => {
    await service({ HF_TOKEN: 'hf_secret' }).fetch('test/gated', FILES, quiet);
    const asked = hub.requests.filter((r) => r.path.startsWith('/test/gated/resolve/main/'));
    assert.ok(asked.length >= 4);
    assert.ok(asked.every((r) => r.auth === 'Bearer hf_secret'));
  });

  it('a bad id or an unknown repo is a config error', async () => {
    assert.throws(() => service().cached('../etc', FILES), isError('config_error', /not a Hugging Face hub id/));
    await assert.rejects(
      service().fetch('test/nothing', FILES, quiet),
      isError('config_error', /has no config\.json for "test\/nothing"/),
    );
  });

  it('the cache folder: KBCTX_MODELS_DIR, then [models] cache_dir, then XDG_CACHE_HOME', () => {
    const s = (env: NodeJS.ProcessEnv, configured: string | null) =>
      createModelsService(() => ({ env, cacheDir: configured })).cacheDir();
    assert.equal(s({ KBCTX_MODELS_DIR: '/a' }, '/b'), '/a');
    assert.equal(s({}, '/b'), '/b');
    assert.equal(s({ XDG_CACHE_HOME: '/x' }, null), join('/x', 'kbctx', 'models'));
  });
});
