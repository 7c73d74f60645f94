// Listings of the real CLI (issue 29 item 14): `plugins` fits 80 columns when not a terminal (hooks with
// --verbose), `kbctx tool` without a subcommand lists what `tool --help` lists, `connector list`, and
// `agent test` takes the path `agent init` suggests, before the config entry exists; the errors for a
// missing embedding provider name every provider the loaded plugins answer for.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { Workspace } from '../helpers/workspace.ts';
import { joinedRegExp } from '../helpers/joined-regexp.ts';

const ws = new Workspace('kbctx-cli-listings-');
before(() => {
  ws.config(
    '[db]\npath = "data/index.sqlite"\n[connectors.filesystem.docs]\nroot = "docs"\n[connectors.git.handbook]\n' +
      'url = "https://example.org/handbook.git"\n',
  );
  ws.write('docs/a.md', '# A\n\ntext');
});
const withPlugin = new Workspace('kbctx-cli-providers-');
before(() => {
  withPlugin.write(
    'plugins/acme.mjs',
    `export default { name: 'acme-vectors', version: '1.0.0', kbctx: '^0.2', provides: ['embedder:acme'],
  apply(kernel) { kernel.hooks.createEmbedder.for('acme').tap('acme-vectors', () => undefined); } };\n`,
  );
  withPlugin.config(
    `plugins = ["bundled", ${JSON.stringify(withPlugin.path('plugins/acme.mjs'))}]\n[db]\npath = "data/index.sqlite"\n`,
  );
});
after(() => {
  ws.cleanup();
  withPlugin.cleanup();
});

const commandsOf = (help: string): string[] =>
  [...help.slice(help.indexOf('Commands:')).matchAll(/^ {2}(\w+)/gm)].map((m) => m[1]!);

describe('CLI listings', () => {
  it('plugins fits 80 columns when stdout is not a terminal; --verbose adds the hooks', async () => {
    const r = await ws.kbctx(['plugins']);
    assert.equal(r.code, 0, r.stderr);
    const long = r.stdout.split('\n').filter((l) => l.length > 80);
    assert.deepEqual(long, []);
    assert.match(r.stdout, /^Plugin +Version +Origin +Load ms +Provides\n/);
    assert.match(r.stdout, /\nstore-sqlite +\S+ +bundled +[\d.]+ +store:sqlite/);
    const verbose = await ws.kbctx(['plugins', '--verbose']);
    assert.deepEqual(
      verbose.stdout.split('\n').filter((l) => l.length > 80),
      [],
    );
    assert.match(
      verbose.stdout,
      /lua-bridge \S+ \(bundled, [\d.]+ ms\)\n {2}hooks: {4}shutdown, createConnector\.for\("script"\)/,
    );
    assert.match(
      verbose.stdout,
      /\n {12}commands, resolvePlugin\.for\("\.lua"\)\n/,
      'long lists wrap under their label',
    );
  });

  it('`kbctx tool` without a subcommand lists what `kbctx tool --help` lists', async () => {
    const bare = await ws.kbctx(['tool']);
    const help = await ws.kbctx(['tool', '--help']);
    assert.deepEqual(commandsOf(bare.stderr + bare.stdout), commandsOf(help.stdout));
    assert.deepEqual(commandsOf(help.stdout), ['call', 'list', 'init', 'test', 'help']);
  });

  it('connector list shows every configured connector and where it reads from', async () => {
    const r = await ws.kbctx(['connector', 'list']);
    assert.equal(r.code, 0, r.stderr);
    assert.match(
      r.stdout,
      joinedRegExp(
        /^Connector +Type +Source\nfilesystem:docs +filesystem +\S+\/docs\ngit:han/,
        /dbook +git +https:\/\/example\.org\/handbook\.git \(main\)\n$/,
      ),
    );
    const j = JSON.parse((await ws.kbctx(['connector', 'list', '--json'])).stdout) as {
      connectors: { connector: string; type: string }[];
    };
    assert.deepEqual(
      j.connectors.map((c) => [c.connector, c.type]),
      [
        ['filesystem:docs', 'filesystem'],
        ['git:handbook', 'git'],
      ],
    );
    assert.deepEqual(commandsOf((await ws.kbctx(['connector', '--help'])).stdout), ['list', 'init', 'test', 'help']);
  });

  it("the errors for a missing embedding provider list every provider: bundled ones and plugins'", async () => {
    const choices =
      /set \[embedding\] provider = "acme", "fastembed", "local", "ollama", "openai" or "transformers" in the config/;
    assert.equal((await withPlugin.kbctx(['init'])).code, 0); // read commands need an index (ADR 0146)
    const search = await withPlugin.kbctx(['search', 'x', '--mode', 'hybrid']);
    assert.equal(search.code, 3, search.stderr);
    assert.match(search.stderr, choices);
    const embed = await withPlugin.kbctx(['embed', 'pending']);
    assert.equal(embed.code, 3, embed.stderr);
    assert.match(embed.stderr, choices);
  });

  it('agent init suggests `agent test <path>`, which works before the config entry is added', async () => {
    assert.equal((await ws.kbctx(['init'])).code, 0); // the agent searches: it needs an index (ADR 0146)
    const init = await ws.kbctx(['agent', 'init', 'guide']);
    assert.equal(init.code, 0, init.stderr);
    assert.match(init.stdout, /Then try it: kbctx agent test agents\/guide\.lua\n/);
    const r = await ws.kbctx(['agent', 'test', 'agents/guide.lua', '--arg', 'topic=deploys']);
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stdout, /^Agent: +guide\nSource: lua\n/);
    const missing = await ws.kbctx(['agent', 'test', 'agents/nobody.lua']);
    assert.equal(missing.code, 4);
  });
});
