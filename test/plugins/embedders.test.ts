// The embedder plugins (embedder-local, embedder-openai, embedder-ollama, embedder-transformers) and
// `createEmbedder.for(provider)`, on a real index opened from a config file: each bundled provider comes from its
// plugin, a third-party plugin can override one, and dropping a plugin makes its provider a config error naming it.
import '../../registry/bundled.ts'; // the bundled plugin set (core/app/bundled-set.ts)
import assert from 'node:assert/strict';
import { after, describe, it } from 'node:test';
import { loadConfig } from '../../core/config/load-config.ts';
import { openKbctx, type Kbctx } from '../../core/app/compose.ts';
import { KbctxError } from '../../core/domain/errors.ts';
import { Workspace } from '../helpers/workspace.ts';

const OVERRIDE = `export default {
  name: 'acme-embed',
  version: '1.0.0',
  kbctx: '^0.2',
  apply(kernel) {
    kernel.hooks.createEmbedder.for('ollama').tap('acme-embed', (options) => ({
      model: 'acme:' + options.model, dims: options.dims, batchSize: options.batchSize, concurrency: 1,
      embed: async (texts) => texts.map(() => new Float32Array(options.dims).fill(1 / Math.sqrt(options.dims))),
    }));
  },
};
`;

const spaces: Workspace[] = [];
const opened: Kbctx[] = [];
after(async () => {
  for (const k of opened) await k.close();
  for (const ws of spaces) ws.cleanup();
});

async function open(toml: string, env: NodeJS.ProcessEnv = {}): Promise<Kbctx> {
  const ws = new Workspace();
  spaces.push(ws);
  ws.write('plugins/override.mjs', OVERRIDE);
  ws.config(toml);
  const kbctx = openKbctx(loadConfig({ cwd: ws.dir, env }), env);
  opened.push(kbctx);
  await kbctx.ready();
  return kbctx;
}

describe('createEmbedder.for(provider)', () => {
  it('each bundled provider comes from its plugin, created without connecting', async () => {
    const openai = await open('[embedding]\nprovider = "openai"\nmodel = "text-embedding-3-small"\ndims = 8\n', {
      OPENAI_API_KEY: 'k',
    });
    assert.equal(openai.index.embedder()?.model, 'openai:text-embedding-3-small');
    const ollama = await open('[embedding]\nprovider = "ollama"\nmodel = "nomic-embed-text"\ndims = 8\n');
    assert.equal(ollama.index.embedder()?.model, 'ollama:nomic-embed-text');
    const local = await open('[embedding]\nprovider = "local"\n');
    assert.match(local.index.embedder()?.model ?? '', /^local:/);
    const listed = local.kernel.plugins().filter((p) => p.hooks.some((h) => h.startsWith('createEmbedder.for(')));
    assert.deepEqual(
      listed.map((p) => [p.name, p.hooks, p.provides]),
      [
        [
          'embedder-local',
          ['createEmbedder.for("local")', 'createEmbedder.for("fastembed")'],
          ['embedder:local', 'embedder:fastembed'],
        ],
        ['embedder-openai', ['createEmbedder.for("openai")'], ['embedder:openai']],
        ['embedder-ollama', ['createEmbedder.for("ollama")'], ['embedder:ollama']],
        // and Context Harness model names under "local"/"fastembed" (issue 31), before embedder-local's tap
        [
          'embedder-transformers',
          ['createEmbedder.for("transformers")', 'createEmbedder.for("local")', 'createEmbedder.for("fastembed")'],
          ['embedder:local', 'embedder:fastembed', 'embedder:transformers'], // derived from its taps (ADR 0180)
        ],
      ],
    );
  });

  it('a third-party plugin overrides a bundled provider', async () => {
    const kbctx = await open(
      'plugins = ["bundled", "./plugins/override.mjs"]\n[embedding]\nprovider = "ollama"\nmodel = "m"\ndims = 4\n',
    );
    const embedder = kbctx.index.embedder();
    assert.equal(embedder?.model, 'acme:m');
    assert.deepEqual(await embedder.embed(['a']), [new Float32Array(4).fill(0.5)]);
  });

  it('a provider error keeps its code and its own message, and records the plugin', async () => {
    const kbctx = await open('[embedding]\nprovider = "openai"\nmodel = "text-embedding-3-small"\ndims = 8\n');
    assert.throws(
      () => kbctx.index.embedder(),
      // A user-facing error reads as itself, without the hook prefix (issue 29 item 8); the plugin stays on the error.
      (e: unknown) =>
        e instanceof KbctxError &&
        e.code === 'config_error' &&
        (e as { plugin?: string }).plugin === 'embedder-openai' &&
        !/failed in hook/.test(e.message) &&
        /OPENAI_API_KEY/.test(e.message),
    );
  });

  it(
    'dropping a provider plugin: its provider is a config ' + 'error naming it and the loaded embedder plugins',
    async () => {
      const kbctx = await open('plugins = ["bundled", "!embedder-local"]\n[embedding]\nprovider = "local"\n');
      assert.throws(
        () => kbctx.index.embedder(),
        (e: unknown) =>
          e instanceof KbctxError &&
          e.code === 'config_error' &&
          e.message ===
            '[embedding] provider = "local": no loaded plugin provides this embedder (it is the bundled plugin ' +
              'embedder-local, which is not loaded: check plugins in the config); loaded embedder plugins: ' +
              'embedder-openai, embedder-ollama, embedder-transformers',
      );
    },
  );

  it('"disabled" needs no embedder plugin at all', async () => {
    const kbctx = await open(
      'plugins = ["bundled", "!embedder-local", "!embedder-openai", "!embedder-ollama", "!embedder-transformers"]\n',
    );
    assert.equal(kbctx.index.embedder(), null);
  });
});
