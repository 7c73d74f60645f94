// Registry manifests cannot point outside their registry: an entry whose path leaves it (`..`, an
// absolute path, a symbolic link to elsewhere) is refused with the entry named, and `override` never
// copies from or to outside. Real folders and symlinks, the real CLI.
import assert from 'node:assert/strict';
import { existsSync, symlinkSync } from 'node:fs';
import { after, describe, it } from 'node:test';
import { Workspace } from './helpers/workspace.ts';
import { joinedRegExp } from './helpers/joined-regexp.ts';

const ws = new Workspace('kbctx-registry-confine-');
after(() => ws.cleanup());

const TOOL = 'tool = { description = "x" }\nfunction tool.execute(p) return "x" end\n';

describe('registry manifest paths are confined to their registry', () => {
  it('refuses entries that escape (.., absolute, through a symlink), naming them; the others still work', async () => {
    ws.write('outside/secret/tool.lua', TOOL);
    ws.write('regs/shared/tools/fine/tool.lua', TOOL);
    symlinkSync(ws.path('outside/secret'), ws.path('regs/shared/tools/linked'));
    ws.write(
      'regs/shared/registry.toml',
      [
        '[tools.fine]\npath = "tools/fine/tool.lua"',
        '[tools.dotdot]\npath = "../../outside/secret/tool.lua"',
        `[tools.absolute]\npath = "${ws.path('outside/secret/tool.lua')}"`,
        '[tools.linked]\npath = "tools/linked/tool.lua"',
      ].join('\n\n'),
    );
    ws.write('regs/mine/.keep', '');
    ws.config(
      `[db]\npath = "index.sqlite"\n\n[registries.shared]\npath = "${ws.path('regs/shared')}"\nreadonly = ` +
        `true\n\n[registries.mine]\npath = "${ws.path('regs/mine')}"\n`,
    );

    const list = await ws.kbctx(['registry', 'list']);
    assert.equal(list.code, 0, list.stderr);
    assert.match(list.stdout, /tools\/fine\s+shared/);
    assert.doesNotMatch(list.stdout, /tools\/(dotdot|absolute|linked)/);
    assert.match(
      list.stderr,
      joinedRegExp(
        /registry 'shared': manifest entry \[tools\.dotdot\] path /,
        /"\.\.\/\.\.\/outside\/secret\/tool\.lua" is outside the registry .*; /,
        /refused/,
      ),
    );
    assert.match(
      list.stderr,
      joinedRegExp(
        /manifest entry \[tools\.linked\] path "tools\/linked\/tool\.lua" /,
        /resolves outside the registry .* \(to .*outside\/secret\/tool\.lua\)/,
      ),
    );

    for (const id of ['tools/dotdot', 'tools/absolute', 'tools/linked']) {
      for (const command of ['info', 'add', 'override']) {
        const r = await ws.kbctx(['registry', command, id]);
        assert.equal(r.code, 1, `${command} ${id}: ${r.stdout}${r.stderr}`);
        assert.match(
          r.stderr,
          new RegExp(`registry 'shared': manifest entry \\[tools\\.${id.slice(6)}\\] path .*; refusing ${id}`),
        );
      }
    }
    assert.ok(!existsSync(ws.path('regs/mine/tools')), 'nothing was copied');
    assert.doesNotMatch((await ws.kbctx(['registry', 'info', 'tools/fine'])).stderr, /refus/);
  });

  it('override refuses a destination that leads outside the writable registry', async () => {
    symlinkSync(ws.path('outside'), ws.path('regs/mine/tools'));
    const r = await ws.kbctx(['registry', 'override', 'tools/fine']);
    assert.equal(r.code, 1, r.stdout);
    assert.match(r.stderr, /cannot copy tools\/fine to .*regs\/mine\/tools\/fine: it resolves outside the registry/);
    assert.ok(!existsSync(ws.path('outside/fine')), 'nothing was copied outside');
  });
});
