// Registry plugins end to end: a real git registry (cloned over file://) holding a TypeScript plugin
// and a Lua plugin, driven through the real `kbctx registry …` and `kbctx plugins` CLI: the trust
// step, the pin in kbctx.lock, a changed file refused, re-trusting.
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { cpSync, existsSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { after, before, describe, it } from 'node:test';
import { pathToFileURL } from 'node:url';
import { parse as parseToml } from 'smol-toml';
import { bareClone, commit, git, initRepo } from './helpers/git-repo.ts';
import { runKbctx, Workspace } from './helpers/workspace.ts';
import { joinedRegExp } from './helpers/joined-regexp.ts';

const ws = new Workspace('kbctx-registry-plugins-');
const HELLO = `import { GREETING } from './words.ts';

export default {
  name: 'hello',
  version: '1.2.0',
  kbctx: '^0.2',
  provides: ['command:hello'],
  apply(kernel) {
    kernel.hooks.commands.tap('hello', (program) => {
      program.command('hello').action(() => console.log(GREETING));
    });
  },
};
`;
const WORDS = "export const GREETING = 'hello from the registry';\n";
const HELLO_MANIFEST = `name = "hello"
version = "1.2.0"
kbctx = "^0.2"
entry = "index.ts"
description = "Says hello from a registry"
tags = ["greeting"]

[options_schema]
type = "object"
[options_schema.properties.loud]
type = "boolean"
`;
// A plugin whose helper re-exports a module from outside its folder (issue 29 item 2).
const SHOUT = `import { helper } from './helper.ts';

export default {
  name: 'shout',
  version: '0.1.0',
  kbctx: '^0.2',
  apply(kernel) {
    kernel.hooks.commands.tap('shout', (program) => {
      program.command('shout').action(() => console.log(helper()));
    });
  },
};
`;
const SHOUT_MANIFEST =
  'name = "shout"\nversion = "0.1.0"\nkbctx = "^0.2"\nentry = "index.ts"\ndescription = "Shouts a shared word"\n';
const REDACT_MANIFEST =
  'name = "redact"\nversion = "0.1.0"\nkbctx = "^0.2"\n' +
  'entry = "plugin.lua"\ndescription = "Redacts secrets before indexing"\n';
let head = '';

before(() => {
  const upstream = initRepo(ws.path('upstream'));
  head = commit(
    upstream,
    {
      'plugins/hello/kbctx-plugin.toml': HELLO_MANIFEST,
      'plugins/hello/index.ts': HELLO,
      'plugins/hello/words.ts': WORDS,
      'plugins/shout/kbctx-plugin.toml': SHOUT_MANIFEST,
      'plugins/shout/index.ts': SHOUT,
      'plugins/shout/helper.ts': "export { helper } from '../../shared/util.ts';\n",
      'shared/util.ts': "export const helper = (): string => 'SHARED WORDS';\n",
      'plugins/redact/kbctx-plugin.toml': REDACT_MANIFEST,
      'plugins/redact/plugin.lua':
        'plugin = { name = "redact", version = "0.1.0", kbctx = "^0.2" }\n' +
        'function plugin.query(request) return nil end\n',
      'plugins/broken/kbctx-plugin.toml': 'name = "broken"\nversion = "1"\nkbctx = "^0.2"\nentry = "main.py"\n',
      'tools/echo/tool.lua': 'tool = { description = "Echo" }\nfunction tool.execute(p) return p end\n',
    },
    'plugins',
    '2026-01-02T03:04:05Z',
  );
  const remote = pathToFileURL(bareClone(upstream, ws.path('remote.git'))).href;
  ws.config(
    `# my config\n[db]\npath = "index.sqlite"\n\n[registries.community]\nurl = "${remote}"\nbranch = "main"\n` +
      `path = "regs/community"\nreadonly = true\n`,
  );
});
after(() => ws.cleanup());

const config = (): Record<string, unknown> => parseToml(readFileSync(ws.path('config/kbctx.toml'), 'utf8'));
const entryFile = (): string => ws.path('regs/community/plugins/hello/index.ts');
/** How the config and kbctx.lock name the entry: relative to the project (issue 29 item 9). */
const ENTRY = './regs/community/plugins/hello/index.ts';
const plugins = async (): Promise<{
  code: number;
  stderr: string;
  list: { name: string; origin: string; from: string; version: string }[];
}> => {
  const r = await ws.kbctx(['plugins', '--json']);
  return {
    code: r.code,
    stderr: r.stderr,
    list: r.code === 0 ? (JSON.parse(r.stdout) as { plugins: never[] }).plugins : [],
  };
};

describe('registry plugins', () => {
  it(
    'install without --trust clones the registry but refuses a ' +
      'TypeScript plugin, naming the risk and the flag (exit 2)',
    async () => {
      const r = await ws.kbctx(['registry', 'install', 'plugins/hello']);
      assert.equal(r.code, 2, r.stderr);
      assert.ok(existsSync(entryFile()), 'the registry was cloned');
      assert.match(r.stderr, /plugins\/hello is a TypeScript plugin: it runs with full rights/);
      assert.match(r.stderr, /kbctx registry add plugins\/hello --trust/);
      assert.equal(config()['plugins'], undefined, 'config untouched');
      assert.ok(!existsSync(ws.path('config/kbctx.lock')));
    },
  );

  it('list, search and info show plugins; an invalid plugin manifest is refused with its reason', async () => {
    const list = await ws.kbctx(['registry', 'list']);
    assert.equal(list.code, 0, list.stderr);
    assert.match(
      list.stdout,
      joinedRegExp(
        /Plugins \(3\)\n.*\nplugins\/hello\s+community\s+no\s+Says /,
        /hello from a registry\nplugins\/redact\s+community\s+no/,
      ),
    );
    assert.match(
      list.stderr,
      joinedRegExp(
        /plugins\/broken\/kbctx-plugin\.toml is not valid \(entry must /,
        /be one of "index\.ts", "index\.mjs", "plugin\.lua"/,
      ),
    );
    assert.match((await ws.kbctx(['registry', 'search', 'greeting'])).stdout, /plugins\/hello/);
    const info = await ws.kbctx(['registry', 'info', 'plugins/hello']);
    assert.equal(info.code, 0, info.stderr);
    assert.match(info.stdout, /version: {9}1\.2\.0 \(kbctx \^0\.2\)/);
    assert.match(info.stdout, /runs: {12}with full rights \(TypeScript\/JavaScript\): adding it needs --trust/);
    assert.match(info.stdout, /options: {9}plugin\.hello\.loud/);
    assert.match(info.stdout, /enabled: {9}no — `kbctx registry add plugins\/hello --trust` enables it/);
    assert.match((await ws.kbctx(['registry', 'info', 'plugins/redact'])).stdout, /runs: {12}sandboxed \(Lua\)/);
  });

  it(
    'add --trust puts the entry file in plugins, pins commit and ' +
      'sha256 in kbctx.lock, and it loads with origin registry',
    async () => {
      const r = await ws.kbctx(['registry', 'add', 'plugins/hello', '--trust']);
      assert.equal(r.code, 0, r.stderr);
      assert.match(r.stdout, /Pinned in config\/kbctx\.lock: commit [0-9a-f]{7}, sha256 [0-9a-f]{12}/);
      assert.deepEqual(config()['plugins'], ['bundled', ENTRY]);
      assert.match(
        readFileSync(ws.path('config/kbctx.toml'), 'utf8'),
        /^plugins = .*\n\n# my config\n\[db\]/,
        'a top-level key before every table; the rest kept',
      );
      const lock = parseToml(readFileSync(ws.path('config/kbctx.lock'), 'utf8')) as {
        plugins: Record<string, Record<string, string>>;
      };
      // The documented digest: one `<path>\0<sha256>\n` line per file of the plugin's folder, sorted.
      const hex = (data: string | Buffer): string => createHash('sha256').update(data).digest('hex');
      const files = ['index.ts', 'kbctx-plugin.toml', 'words.ts'].map(
        (f) => `${f}\0${hex(readFileSync(ws.path(`regs/community/plugins/hello/${f}`)))}\n`,
      );
      const sha256 = hex(files.sort().join(''));
      assert.deepEqual(
        { ...lock.plugins['hello'] },
        { registry: 'community', path: 'plugins/hello/index.ts', file: ENTRY, commit: head, sha256 },
      );
      const loaded = await plugins();
      assert.equal(loaded.code, 0, loaded.stderr);
      const hello = loaded.list.find((p) => p.name === 'hello');
      assert.deepEqual(hello && { origin: hello.origin, version: hello.version, from: hello.from }, {
        origin: 'registry',
        version: '1.2.0',
        from: `community:plugins/hello/index.ts@${head.slice(0, 7)}`,
      });
      assert.match((await ws.kbctx(['hello'])).stdout, /hello from the registry/);
      assert.match(
        (await ws.kbctx(['registry', 'add', 'plugins/hello', '--trust'])).stdout,
        /Nothing to do: plugins\/hello is already in the plugins list/,
      );
      assert.match((await ws.kbctx(['registry', 'list'])).stdout, /plugins\/hello\s+community\s+yes/);
    },
  );

  it(
    'a pinned plugin whose helper module (not its entry) ' + 'changed is refused too; restored, it loads again',
    async () => {
      writeFileSync(ws.path('regs/community/plugins/hello/words.ts'), "export const GREETING = 'tampered';\n");
      const refused = await plugins();
      assert.equal(refused.code, 3);
      assert.match(
        refused.stderr,
        /plugin 'hello' \(registry 'community', plugins\/hello\/index\.ts\) changed since it was trusted/,
      );
      git(ws.path('regs/community'), ['checkout', '--', '.']);
      assert.match((await ws.kbctx(['hello'])).stdout, /hello from the registry/);
    },
  );

  it(
    'a pinned plugin whose file changed is refused, naming it ' +
      'and how to re-trust (exit 3); add --trust again re-pins it',
    async () => {
      writeFileSync(entryFile(), HELLO.replace('console.log(GREETING)', "console.log('something else')"));
      const refused = await plugins();
      assert.equal(refused.code, 3);
      assert.match(
        refused.stderr,
        joinedRegExp(
          /plugin 'hello' \(registry 'community', /,
          /plugins\/hello\/index\.ts\) changed since it was trusted at /,
          /commit [0-9a-f]{7}/,
        ),
      );
      assert.match(refused.stderr, /trust it again with `kbctx registry add plugins\/hello --trust`/);
      const again = await ws.kbctx(['registry', 'add', 'plugins/hello', '--trust']);
      assert.equal(again.code, 0, again.stderr);
      assert.doesNotMatch(again.stdout, /Added to/, 'the entry is not added twice');
      assert.deepEqual(config()['plugins'], ['bundled', ENTRY]);
      assert.match((await ws.kbctx(['hello'])).stdout, /something else/);
      git(ws.path('regs/community'), ['checkout', '--', '.']);
    },
  );

  it('a TypeScript plugin inside a registry that is not pinned is refused', async () => {
    const text = readFileSync(ws.path('config/kbctx.lock'), 'utf8');
    writeFileSync(ws.path('config/kbctx.lock'), '');
    try {
      const r = await plugins();
      assert.equal(r.code, 3);
      assert.match(r.stderr, /is in registry 'community' but not trusted .*kbctx registry add plugins\/hello --trust/);
    } finally {
      writeFileSync(ws.path('config/kbctx.lock'), text);
    }
  });

  it('a Lua plugin is added without --trust and without a pin: the entry points at its .lua file', async () => {
    const r = await ws.kbctx(['registry', 'add', 'plugins/redact']);
    assert.equal(r.code, 0, r.stderr);
    assert.deepEqual(config()['plugins'], ['bundled', ENTRY, './regs/community/plugins/redact/plugin.lua']);
    const lock = parseToml(readFileSync(ws.path('config/kbctx.lock'), 'utf8')) as { plugins: Record<string, unknown> };
    assert.deepEqual(Object.keys(lock.plugins), ['hello']);
  });

  it(
    'config and kbctx.lock name every added file relative to ' + 'the project, so the project still works once moved',
    async () => {
      assert.equal(
        (await ws.kbctx(['registry', 'add', 'plugins/hello', '--trust'])).code,
        0,
        're-pinned after the tests above changed it',
      );
      const tool = await ws.kbctx(['registry', 'add', 'tools/echo']);
      assert.equal(tool.code, 0, tool.stderr);
      assert.equal(
        (config()['tools'] as { script: Record<string, { path: string }> }).script['echo']?.path,
        './regs/community/tools/echo/tool.lua',
      );
      const text =
        `${readFileSync(ws.path('config/kbctx.toml'), 'utf8')}\n` +
        `${readFileSync(ws.path('config/kbctx.lock'), 'utf8')}`;
      // the test's own remote lives in the temp folder too
      const written = text.split('\n').filter((line) => !line.startsWith('url = '));
      assert.ok(!written.some((line) => line.includes(ws.dir)), `no absolute path into the project:\n${text}`);
      // Copy the project elsewhere and move the original away: only the copy can answer.
      const moved = `${ws.dir}-moved`;
      const away = `${ws.dir}-away`;
      cpSync(ws.dir, moved, { recursive: true });
      renameSync(ws.dir, away);
      try {
        const hello = await runKbctx(['hello'], { cwd: moved });
        assert.equal(hello.code, 0, hello.stderr);
        assert.match(hello.stdout, /hello from the registry/, 'the pinned plugin loads from the copy');
        const listed = await runKbctx(['tool', 'list', '--json'], { cwd: moved });
        assert.equal(listed.code, 0, listed.stderr);
        assert.ok(
          (JSON.parse(listed.stdout) as { tools: { name: string }[] }).tools.some((t) => t.name === 'echo'),
          listed.stdout,
        );
        const loaded = await runKbctx(['plugins', '--json'], { cwd: moved });
        assert.ok(
          (JSON.parse(loaded.stdout) as { plugins: { name: string; from: string }[] }).plugins.some(
            (p) => p.name === 'redact' && p.from.startsWith(moved),
          ),
          loaded.stdout,
        );
      } finally {
        renameSync(away, ws.dir);
        rmSync(moved, { recursive: true, force: true });
      }
    },
  );

  it('a pinned plugin whose module imported from outside its folder changed is refused until re-trusted', async () => {
    const added = await ws.kbctx(['registry', 'add', 'plugins/shout', '--trust']);
    assert.equal(added.code, 0, added.stderr);
    assert.match((await ws.kbctx(['shout'])).stdout, /SHARED WORDS/);
    writeFileSync(ws.path('regs/community/shared/util.ts'), "export const helper = (): string => 'tampered';\n");
    const refused = await ws.kbctx(['shout']);
    assert.equal(refused.code, 3, refused.stdout);
    assert.match(
      refused.stderr,
      /plugin 'shout' \(registry 'community', plugins\/shout\/index\.ts\) changed since it was trusted/,
    );
    assert.doesNotMatch(refused.stdout, /tampered/, 'the changed code did not run');
    const again = await ws.kbctx(['registry', 'add', 'plugins/shout', '--trust']);
    assert.equal(again.code, 0, again.stderr);
    assert.match((await ws.kbctx(['shout'])).stdout, /tampered/, 'runs once re-trusted');
    git(ws.path('regs/community'), ['checkout', '--', '.']);
  });
});
