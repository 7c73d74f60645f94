// The code chunker through the real CLI: a folder of code synced with the bundled plugins, a search for
// a function's name finds its definition first; `chunker = "text"` on the connector leaves the same
// files to the text chunker, and an unknown `chunker` value is a config error naming the key.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { after, describe, it } from 'node:test';
import { Workspace } from '../helpers/workspace.ts';

const sample = (name: string): string =>
  readFileSync(new URL(`../fixtures/code/${name}.sample`, import.meta.url), 'utf8');

// Enough neighbours that the text chunker's 60-token chunks and the code chunker's differ.
const helpers = Array.from(
  { length: 6 },
  (_, i) =>
    `\n/** Helper ${i}: rounds a measure to ${i} places. */\nexport function roundTo${i}(value: number): number ` +
    `{\n  return Number(value.toFixed(${i}));\n}\n`,
).join('');

function workspace(chunker: string | undefined): Workspace {
  const ws = new Workspace();
  ws.write('repo/src/shapes.ts', sample('shapes.ts') + helpers);
  ws.write('repo/tools/inventory.py', sample('inventory.py'));
  ws.write('repo/README.md', '# Shapes\n\nRectangles on the plane and parts in a warehouse.\n');
  ws.config(
    `[chunking]\nmax_tokens = 60\noverlap_tokens = 0\n` +
      `[connectors.filesystem.repo]\nroot = "repo"\ninclude_globs = ["**/*.ts", "**/*.py", "**/*.md"]\n` +
      (chunker === undefined ? '' : `chunker = "${chunker}"\n`),
  );
  return ws;
}

interface Hit {
  source_id: string;
  snippet: string;
}

describe('chunker-code: a code folder through the CLI', () => {
  const spaces: Workspace[] = [];
  after(() => spaces.forEach((ws) => ws.cleanup()));

  it('auto (the default): a search for a function name finds its definition first', async () => {
    const ws = workspace(undefined);
    spaces.push(ws);
    const { code, reports, stderr } = await ws.syncJson('all');
    assert.equal(code, 0, stderr);
    assert.equal(reports[0]?.errors, 0, JSON.stringify(reports));
    for (const [query, file, definition] of [
      ['drawingPath', 'src/shapes.ts', 'function drawingPath('],
      ['restock', 'tools/inventory.py', 'def restock('],
      ['load_parts', 'tools/inventory.py', 'def load_parts('],
    ] as const) {
      const { stdout } = await ws.kbctx(['search', query, '--json']);
      const [first] = (JSON.parse(stdout) as { results: Hit[] }).results;
      assert.equal(first?.source_id, file, stdout);
      assert.ok(first.snippet.includes(definition.split('(')[0]!.split(' ')[1]!), stdout);
    }
    const listed = JSON.parse((await ws.kbctx(['plugins', '--json'])).stdout) as {
      plugins: { name: string; hooks: string[] }[];
    };
    assert.deepEqual(listed.plugins.find((p) => p.name === 'chunker-code')?.hooks, ['chunk']);
  });

  it('chunker = "text" leaves the code to the text chunker (other chunks); "code" chunks by syntax', async () => {
    const chunksOf = async (chunker: string | undefined): Promise<number> => {
      const ws = workspace(chunker);
      spaces.push(ws);
      const { code, reports, stderr } = await ws.syncJson('all');
      assert.equal(code, 0, stderr);
      return reports[0]!.chunks_written;
    };
    const [auto, code, text] = [await chunksOf(undefined), await chunksOf('code'), await chunksOf('text')];
    assert.equal(code, auto);
    assert.notEqual(text, auto);
  });

  it('an unknown chunker value is a config error naming the key', async () => {
    const ws = workspace('ast');
    spaces.push(ws);
    const { code, stderr } = await ws.kbctx(['sync', 'all']);
    assert.notEqual(code, 0);
    assert.match(stderr, /chunker/);
  });
});
