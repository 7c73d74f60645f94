// The digest a registry plugin's pin holds (core/load/plugin-lock.ts sha256Plugin): every file in the
// plugin's folder counts, a symbolic link by its target's name and the bytes of the file it leads to.
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, it } from 'node:test';
import { sha256Plugin } from '../../core/load/plugin-lock.ts';

const dir = mkdtempSync(path.join(tmpdir(), 'kbctx-plugin-digest-'));
after(() => rmSync(dir, { recursive: true, force: true }));

it('changes with a helper module, a linked file\'s bytes and the link itself; not with files outside the folder', () => {
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
