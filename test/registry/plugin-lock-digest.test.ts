// The digest a registry plugin's pin holds (registry/plugin-lock.ts sha256Plugin): every file in the
// plugin's folder counts, a symbolic link by its target's name and the bytes of the file it leads to,
// and every file outside the folder its modules import (registry/plugin-imports.ts).
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, it } from 'node:test';
import { sha256Plugin } from '../../registry/plugin-lock.ts';

const dir = mkdtempSync(path.join(tmpdir(), 'kbctx-plugin-digest-'));
after(() => rmSync(dir, { recursive: true, force: true }));

it("changes with a helper module, a linked file's bytes and the link itself; not with files outside the folder", () => {
  const plugin = path.join(dir, 'plugins', 'acme');
  mkdirSync(path.join(plugin, 'lib'), { recursive: true });
  writeFileSync(path.join(plugin, 'index.ts'), "export { default } from './lib/impl.ts';\n");
  writeFileSync(path.join(dir, 'shared.ts'), 'export const A = 1;\n');
  writeFileSync(path.join(dir, 'other.ts'), 'export const A = 1;\n');
  symlinkSync(path.join(dir, 'shared.ts'), path.join(plugin, 'lib', 'impl.ts'));
  const entry = path.join(plugin, 'index.ts');
  const first = sha256Plugin(entry);
  assert.equal(sha256Plugin(entry), first, 'the same files give the same digest');
  writeFileSync(path.join(dir, 'unrelated.ts'), 'x');
  assert.equal(sha256Plugin(entry), first, 'a file outside the folder does not count');
  writeFileSync(path.join(dir, 'shared.ts'), 'export const A = 2;\n');
  const linkedChanged = sha256Plugin(entry);
  assert.notEqual(linkedChanged, first, 'the bytes a link leads to count');
  rmSync(path.join(plugin, 'lib', 'impl.ts'));
  symlinkSync(path.join(dir, 'other.ts'), path.join(plugin, 'lib', 'impl.ts'));
  assert.notEqual(sha256Plugin(entry), linkedChanged, 'the link target counts');
  assert.throws(() => sha256Plugin(path.join(plugin, 'missing.ts')), /ENOENT/);
});

it(
  'changes with every file outside the folder the plugin imports, in each import form and through each other; not ' +
    'with packages or node_modules',
  () => {
    const root = path.join(dir, 'registry');
    const plugin = path.join(root, 'plugins', 'acme');
    const write = (rel: string, text: string): void => {
      mkdirSync(path.dirname(path.join(root, rel)), { recursive: true });
      writeFileSync(path.join(root, rel), text);
    };
    write(
      'plugins/acme/index.ts',
      [
        "import { a } from '../../shared/a.ts';",
        'export { b } from "../../shared/b.ts";',
        "import '../../shared/side.mjs';",
        "const c = await import('../../shared/c.js');",
        "const d = require('../../shared/d.cjs');",
        "import type { E } from '../../shared/noext';",
        "import pkg from 'some-package';",
        "import z from '../../node_modules/z/index.js';",
        '',
      ].join('\n'),
    );
    for (const f of ['b.ts', 'side.mjs', 'c.js', 'd.cjs', 'noext.ts', 'deeper.json'])
      write(`shared/${f}`, `// ${f} v1\n`);
    write('shared/a.ts', "export * from './deep/index.ts';\n");
    write('shared/deep/index.ts', "import data from '../deeper.json' with { type: 'json' };\n");
    write('node_modules/z/index.js', 'v1');
    write('shared/unrelated.ts', 'v1');
    const entry = path.join(plugin, 'index.ts');
    let digest = sha256Plugin(entry);
    for (const f of ['a.ts', 'b.ts', 'side.mjs', 'c.js', 'd.cjs', 'noext.ts', 'deep/index.ts', 'deeper.json']) {
      writeFileSync(path.join(root, 'shared', f), `${readFileSync(path.join(root, 'shared', f), 'utf8')}// changed\n`);
      const changed = sha256Plugin(entry);
      assert.notEqual(changed, digest, `a change in shared/${f} counts`);
      digest = changed;
    }
    write('node_modules/z/index.js', 'v2');
    write('shared/unrelated.ts', 'v2');
    assert.equal(sha256Plugin(entry), digest, 'node_modules and files nothing imports do not count');
  },
);
