// The chunker-default plugin and the `chunk` hook, through the real CLI: a third-party chunker wins over
// the default (which taps last) for the documents it answers; dropping chunker-default makes a sync
// without another chunker fail with a config error naming it.
import assert from 'node:assert/strict';
import { after, describe, it } from 'node:test';
import { Workspace } from '../helpers/workspace.ts';

const LINES_PLUGIN = `export default {
  name: 'acme-lines',
  version: '1.0.0',
  kbctx: '^0.2',
  optionsSchema: { type: 'object', properties: { all: { type: 'boolean' } } },
  apply(kernel, options) {
    kernel.hooks.chunk.tapPromise('acme-lines', async ({ document, sizes }) => {
      if (!options.all && !document.sourceId.startsWith('lines/')) return undefined;
      if (sizes.maxTokens !== 700) throw new Error('expected the [chunking] sizes');
      return document.body.split('\\n').filter((line) => line.trim() !== '');
    });
  },
};
`;

function workspace(plugins: string, pluginOptions = ''): Workspace {
  const ws = new Workspace();
  ws.write('kb/lines/a.md', 'first line about otters\nsecond line about otters\nthird line about otters\n');
  ws.write('kb/other/b.md', 'one paragraph\nwrapped over\nthree lines\n');
  ws.write('plugins/lines.mjs', LINES_PLUGIN);
  ws.config(`plugins = ${plugins}\n[connectors.filesystem.kb]\nroot = "kb"\n${pluginOptions}`);
  return ws;
}

describe('chunk: a third-party chunker', () => {
  const spaces: Workspace[] = [];
  after(() => spaces.forEach((ws) => ws.cleanup()));

  it('wins over the default chunker for the documents it answers; the default chunks the rest', async () => {
    const ws = workspace('["bundled", "./plugins/lines.mjs"]');
    spaces.push(ws);
    const { code, reports, stderr } = await ws.syncJson('all');
    assert.equal(code, 0, stderr);
    assert.equal(reports[0]?.chunks_written, 3 + 1);
    const listed = JSON.parse((await ws.kbctx(['plugins', '--json'])).stdout) as {
      plugins: { name: string; hooks: string[] }[];
    };
    assert.deepEqual(listed.plugins.find((p) => p.name === 'chunker-default')?.hooks, ['chunk']);
  });

  it('"!chunker-default" with no other chunker: the sync fails naming the plugin', async () => {
    const ws = workspace('["bundled", "!chunker-default"]');
    spaces.push(ws);
    const { reports } = await ws.syncJson('all');
    assert.equal(reports[0]?.failure?.code, 'config_error');
    assert.match(reports[0].failure.message, /no loaded plugin chunks .*chunker-default, which is not loaded/);
    assert.equal(JSON.parse((await ws.kbctx(['search', 'otters', '--json'])).stdout).results.length, 0);
  });

  it('"!chunker-default" with a chunker that answers for every document: everything indexes', async () => {
    const ws = workspace('["bundled", "!chunker-default", "./plugins/lines.mjs"]', '[plugin.acme-lines]\nall = true\n');
    spaces.push(ws);
    const { code, reports, stderr } = await ws.syncJson('all');
    assert.equal(code, 0, stderr);
    assert.equal(reports[0]?.chunks_written, 3 + 3);
  });
});
