// toConfigPath: how `registry add`/`init` and kbctx.lock write a file (relative to the project, `~/…`,
// else absolute), each form resolving back to the same file as the config reads it (ADR 0114).
import assert from 'node:assert/strict';
import path from 'node:path';
import { it } from 'node:test';
import { toConfigPath } from '../../registry/config-path.ts';
import { resolvePluginPath } from '../../core/load/plugin-specs.ts';

it('writes a file inside the project relative to it, under the home folder with ~/, else absolute', () => {
  const home = process.env['HOME'] ?? '/home/u';
  const project = path.join(home, 'work', 'kb');
  const cases: [string, string][] = [
    [path.join(project, 'regs/community/plugins/hello/index.ts'), './regs/community/plugins/hello/index.ts'],
    [path.join(home, '.kbctx/registries/community/tools/x/tool.lua'), '~/.kbctx/registries/community/tools/x/tool.lua'],
    ['/opt/registries/acme/plugin.lua', '/opt/registries/acme/plugin.lua'],
    [`${project}-other/a.ts`, `~/work/kb-other/a.ts`],
  ];
  for (const [file, written] of cases) {
    assert.equal(toConfigPath(file, project, home), written, file);
    assert.equal(resolvePluginPath(written, project), file, `${written} resolves back`);
  }
  assert.equal(toConfigPath('/opt/x.ts', '/srv/kb', ''), '/opt/x.ts', 'no home folder: absolute');
});
