import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, it } from 'node:test';
import { appendPluginEntry } from '../../registry/config-edit.ts';

const dir = mkdtempSync(path.join(tmpdir(), 'kbctx-config-edit-'));
after(() => rmSync(dir, { recursive: true, force: true }));

it('appendPluginEntry rewrites an existing multi-line plugins list in place, keeping every other line', () => {
  const file = path.join(dir, 'a.toml');
  writeFileSync(
    file,
    '# top\nplugins = [\n  "bundled",\n  "./odd]name.ts", # a comment\n]\nother = 1\n\n[db]\npath = "x.sqlite"\n',
  );
  appendPluginEntry(file, '/reg/plugins/p/index.ts');
  assert.equal(
    readFileSync(file, 'utf8'),
    '# top\nplugins = ["bundled", "./odd]name.ts", "/reg/plugins/p/index.ts"]\nother = 1\n\n[db]\npath = "x.sqlite"\n',
  );
});

it(
  'appendPluginEntry puts plugins first when the file has none, ' + 'and creates a missing file from the initial text',
  () => {
    const file = path.join(dir, 'b.toml');
    writeFileSync(file, '[db]\npath = "x.sqlite"\n');
    appendPluginEntry(file, '/p.lua');
    assert.equal(readFileSync(file, 'utf8'), 'plugins = ["bundled", "/p.lua"]\n\n[db]\npath = "x.sqlite"\n');
    const created = path.join(dir, 'new', 'c.toml');
    appendPluginEntry(created, '/p.lua', '[db]\n');
    assert.equal(readFileSync(created, 'utf8'), 'plugins = ["bundled", "/p.lua"]\n\n[db]\n');
  },
);
