// Extension registries end to end: real git repositories in a temp dir reached by file:// URLs,
// driven through the real `kbctx registry …` CLI.
import assert from 'node:assert/strict';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { after, before, describe, it } from 'node:test';
import { pathToFileURL } from 'node:url';
import { parse as parseToml } from 'smol-toml';
import { bareClone, commit, git, initRepo } from './helpers/git-repo.ts';
import { Workspace } from './helpers/workspace.ts';

const ws = new Workspace('kbctx-registry-');
const DATE = '2026-01-02T03:04:05Z';
let upstream = '';
let remoteUrl = '';

const MANIFEST = `[registry]
name = "community"
description = "Test community registry"

[connectors.rss]
path = "connectors/rss/connector.lua"
description = "Index RSS and Atom feeds"
tags = ["feeds", "news"]
required_config = ["feed_url"]
host_apis = ["http"]

[tools.web-fetch]
path = "tools/web-fetch/tool.lua"
description = "Fetch a web page as text"
tags = ["web"]
host_apis = ["http"]

[agents.researcher]
path = "agents/researcher/agent.lua"
description = "Researches a topic in the knowledge base"
tools = ["search", "get"]
`;

before(() => {
  upstream = initRepo(ws.path('upstream'));
  commit(
    upstream,
    {
      'registry.toml': MANIFEST,
      'connectors/rss/connector.lua':
        'connector = { name = "rss" }\nfunction connector.scan(config)\n' +
        '  local r = http.get(config.feed_url)\n  return {}\nend\n',
      'connectors/rss/config.example.toml':
        '[connectors.script.rss]\npath = "connectors/rss/connector.lua"\nfeed_url = ' +
        '"https://example.com/feed.xml"\nmax_items = "50"\n',
      'tools/web-fetch/tool.lua':
        '-- fetches with http.get\ntool = { description = "Fetch a page" }\nfunction tool.execute(p)\n  return ' +
        'http.get(p.url).body\nend\n',
      'agents/researcher/agent.lua':
        'agent = { description = "Researcher" }\n' +
        'function agent.resolve(args, config, context)\n  return { system = "x" }\nend\n',
    },
    'initial',
    DATE,
  );
  remoteUrl = pathToFileURL(bareClone(upstream, ws.path('remote.git'))).href;
  // A local folder registry without a manifest: the conventional tree is scanned.
  ws.write(
    'regs/company/tools/web-fetch/tool.lua',
    'tool = { description = "Company fetch" }\nfunction tool.execute(p) return env.get("X") end\n',
  );
  ws.write(
    'regs/company/tools/summarize/tool.lua',
    'tool = { description = "Summarize" }\nfunction tool.execute(p) return context.search(p.q) end\n',
  );
  ws.config(
    `[db]\npath = "index.sqlite"\n\n[registries.community]\nurl = "${remoteUrl}"\nbranch = "main"\npath = ` +
      `"${ws.path('regs/community')}"\nreadonly = true\n\n[registries.company]\npath = ` +
      `"${ws.path('regs/company')}"\n`,
  );
});
after(() => ws.cleanup());

const config = (): Record<string, unknown> => parseToml(readFileSync(ws.path('config/kbctx.toml'), 'utf8'));

describe('kbctx registry', () => {
  it('install clones registries with a url, once', async () => {
    const first = await ws.kbctx(['registry', 'install']);
    assert.equal(first.code, 0, first.stderr);
    assert.match(first.stdout, /community: cloned/);
    assert.match(first.stdout, /company: already installed/, 'a local folder registry needs no clone');
    assert.ok(existsSync(ws.path('regs/community/registry.toml')));
    assert.match(
      (await ws.kbctx(['registry', 'install', '--name', 'community'])).stdout,
      /community: already installed/,
    );
    assert.equal((await ws.kbctx(['registry', 'install', '--name', 'nope'])).code, 4);
  });

  it('list groups extensions by type; the later registry wins a name clash', async () => {
    const r = await ws.kbctx(['registry', 'list']);
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stdout, /community\s+0\s+.*read-only\s+git/);
    assert.match(r.stdout, /company\s+1\s+.*writable\s+folder/);
    assert.match(r.stdout, /Connectors \(1\)\n.*\nconnectors\/rss\s+community\s+no\s+Index RSS/);
    assert.match(r.stdout, /tools\/web-fetch\s+company\s+no/);
    assert.match(r.stderr, /registry 'company': no registry\.toml; scanned the folder tree instead/);
  });

  it('info shows registry, script, tags, required config and host APIs (declared and used)', async () => {
    const r = await ws.kbctx(['registry', 'info', 'connectors/rss']);
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stdout, /registry: {8}community/);
    assert.match(r.stdout, /script: {10}.*regs\/community\/connectors\/rss\/connector\.lua/);
    assert.match(r.stdout, /tags: {12}feeds, news/);
    assert.match(r.stdout, /required config: feed_url/);
    assert.match(r.stdout, /host APIs: {7}http \(declared\); http \(used by the script\)/);
    const clash = await ws.kbctx(['registry', 'info', 'tools/web-fetch']);
    assert.match(clash.stdout, /registry: {8}company \(overrides community\)/);
    assert.match(clash.stdout, /env \(used by the script\)/);
    assert.equal((await ws.kbctx(['registry', 'info', 'widgets/x'])).code, 2);
    assert.match(
      (await ws.kbctx(['registry', 'info', 'tools/web'])).stderr,
      /no registry provides tools\/web; did you mean tools\/web-fetch/,
    );
  });

  it('an explicit priority beats the written order', async () => {
    const original = readFileSync(ws.path('config/kbctx.toml'), 'utf8');
    writeFileSync(ws.path('config/kbctx.toml'), original.replace('readonly = true', 'readonly = true\npriority = 10'));
    try {
      assert.match(
        (await ws.kbctx(['registry', 'info', 'tools/web-fetch'])).stdout,
        /registry: {8}community \(overrides company\)/,
      );
    } finally {
      writeFileSync(ws.path('config/kbctx.toml'), original);
    }
  });

  it('search matches name, tag and description', async () => {
    assert.match((await ws.kbctx(['registry', 'search', 'feeds'])).stdout, /connectors\/rss/);
    assert.match((await ws.kbctx(['registry', 'search', 'knowledge'])).stdout, /agents\/researcher/);
    const json = JSON.parse((await ws.kbctx(['registry', 'search', 'summarize', '--json'])).stdout) as {
      extensions: { id: string }[];
    };
    assert.deepEqual(
      json.extensions.map((e) => e.id),
      ['tools/summarize'],
    );
    assert.match((await ws.kbctx(['registry', 'search', 'zzz'])).stdout, /No extensions match/);
  });

  it('add writes a pre-filled config entry once; running it twice does not duplicate', async () => {
    const first = await ws.kbctx(['registry', 'add', 'connectors/rss']);
    assert.equal(first.code, 0, first.stderr);
    assert.match(first.stdout, /\[connectors\.script\.rss\]/);
    const entry = (config()['connectors'] as { script: Record<string, Record<string, unknown>> }).script['rss']!;
    assert.equal(entry['feed_url'], 'https://example.com/feed.xml');
    assert.equal(entry['max_items'], '50');
    assert.equal(
      entry['path'],
      './regs/community/connectors/rss/connector.lua',
      'relative to the project, so it can be committed and moved',
    );
    assert.equal(entry['timeout'], 300, 'connectors get the 300 s connector time-out');
    const text = readFileSync(ws.path('config/kbctx.toml'), 'utf8');
    const second = await ws.kbctx(['registry', 'add', 'connectors/rss']);
    assert.match(second.stdout, /Nothing to do: connectors\.script\.rss is already in/);
    assert.equal(readFileSync(ws.path('config/kbctx.toml'), 'utf8'), text);
    assert.match((await ws.kbctx(['registry', 'list'])).stdout, /connectors\/rss\s+community\s+yes/);
    // (sources needs an index: no read command creates one)
    assert.equal((await ws.kbctx(['init'])).code, 0, 'the edited config still loads');
  });

  it('explicit config beats registries: add leaves an existing entry alone', async () => {
    writeFileSync(
      ws.path('config/kbctx.toml'),
      `${readFileSync(ws.path('config/kbctx.toml'), 'utf8')}\n[tools.script.summarize]\npath = "mine.lua"\n`,
    );
    const r = await ws.kbctx(['registry', 'add', 'tools/summarize']);
    assert.match(r.stdout, /Nothing to do: tools\.script\.summarize is already in/);
    assert.match((await ws.kbctx(['registry', 'list'])).stdout, /tools\/summarize\s+company\s+no/);
  });

  it('update pulls upstream changes and refuses to clobber local changes', async () => {
    commit(
      upstream,
      { 'tools/web-fetch/tool.lua': 'tool = { description = "Fetch v2" }\nfunction tool.execute(p) return "v2" end\n' },
      'v2',
      DATE,
    );
    git(upstream, ['push', '--quiet', ws.path('remote.git'), 'main']);
    const r = await ws.kbctx(['registry', 'update']);
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stdout, /community: updated [0-9a-f]{7}\.\.[0-9a-f]{7}/);
    assert.match(r.stdout, /company: not a git repository/);
    assert.match(readFileSync(ws.path('regs/community/tools/web-fetch/tool.lua'), 'utf8'), /v2/);
    assert.match((await ws.kbctx(['registry', 'update'])).stdout, /community: up to date/);

    writeFileSync(ws.path('regs/community/tools/web-fetch/tool.lua'), '-- my local edit\n');
    const refused = await ws.kbctx(['registry', 'update', '--name', 'community']);
    assert.equal(refused.code, 7);
    assert.match(refused.stderr, /community: not updated: it has local changes \(tools\/web-fetch\/tool\.lua\)/);
    assert.equal(readFileSync(ws.path('regs/community/tools/web-fetch/tool.lua'), 'utf8'), '-- my local edit\n');
    git(ws.path('regs/community'), ['checkout', '--', '.']);
  });

  it('override copies an extension into the writable registry, which then provides it', async () => {
    const r = await ws.kbctx(['registry', 'override', 'agents/researcher']);
    assert.equal(r.code, 0, r.stderr);
    assert.ok(existsSync(ws.path('regs/company/agents/researcher/agent.lua')));
    assert.match(
      (await ws.kbctx(['registry', 'info', 'agents/researcher'])).stdout,
      /registry: {8}company \(overrides community\)/,
    );
    assert.equal(
      (await ws.kbctx(['registry', 'override', 'agents/researcher'])).code,
      7,
      'a second override does not overwrite',
    );
  });

  it(
    'override of an enabled extension: the copy gets its ' + 'manifest entry and the enabled entry runs the copy',
    async () => {
      // connectors/rss was enabled by `add` above; its original fetches a feed, the copy is edited to return one item.
      const r = await ws.kbctx(['registry', 'override', 'connectors/rss']);
      assert.equal(r.code, 0, r.stderr);
      assert.match(
        r.stdout,
        /Copied connectors\/rss to .*regs\/company\/connectors\/rss with its entry in .*regs\/company\/registry\.toml/,
      );
      const manifest = parseToml(readFileSync(ws.path('regs/company/registry.toml'), 'utf8')) as Record<
        string,
        Record<string, Record<string, unknown>>
      >;
      assert.deepEqual(
        { ...manifest['connectors']?.['rss'] },
        {
          path: 'connectors/rss/connector.lua',
          description: 'Index RSS and Atom feeds',
          tags: ['feeds', 'news'],
          required_config: ['feed_url'],
          host_apis: ['http'],
        },
      );
      assert.equal(
        manifest['tools']?.['summarize']?.['path'],
        'tools/summarize/tool.lua',
        'the scanned tree is kept in the new manifest',
      );
      const info = await ws.kbctx(['registry', 'info', 'connectors/rss']);
      assert.match(info.stdout, /registry: {8}company \(overrides community\)/);
      assert.match(info.stdout, /description: {5}Index RSS and Atom feeds/);
      assert.match(info.stdout, /enabled: {9}yes/);
      writeFileSync(
        ws.path('regs/company/connectors/rss/connector.lua'),
        'connector = { name = "rss" }\nfunction connector.scan(config)\n  return { { source_id = "from-copy", ' +
          'title = "Copy", body = "the edited copy ran" } }\nend\n',
      );
      const sync = await ws.syncJson('script:rss');
      assert.equal(sync.reports[0]?.failure, null, sync.stderr);
      assert.equal(sync.reports[0]?.upserted, 1);
      const hits = JSON.parse((await ws.kbctx(['search', 'edited copy', '--json'])).stdout) as {
        results: { source_id: string }[];
      };
      assert.deepEqual(
        hits.results.map((h) => h.source_id),
        ['from-copy'],
      );
    },
  );

  it('init clones the community registry and adds it to the config; repeating changes nothing', async () => {
    const fresh = new Workspace('kbctx-registry-init-');
    try {
      fresh.config('[db]\npath = "index.sqlite"\n');
      const args = ['registry', 'init', '--url', remoteUrl, '--path', fresh.path('community')];
      const first = await fresh.kbctx(args);
      assert.equal(first.code, 0, first.stderr);
      assert.match(first.stdout, /cloned to .*community; added to the config/);
      const text = readFileSync(fresh.path('config/kbctx.toml'), 'utf8');
      assert.match(
        text,
        /\[registries\.community\]\nurl = "file:.*\nbranch = "main"\npath = "\.\/community"\n/,
        'the clone inside the project is written relative to it',
      );
      const second = await fresh.kbctx(args);
      assert.match(second.stdout, /already at .*; already in the config/);
      assert.equal(readFileSync(fresh.path('config/kbctx.toml'), 'utf8'), text);
    } finally {
      fresh.cleanup();
    }
  });

  it('init without network fails clearly and leaves the config untouched', async () => {
    const offline = new Workspace('kbctx-registry-offline-');
    try {
      offline.config('[db]\npath = "index.sqlite"\n');
      const before = readFileSync(offline.path('config/kbctx.toml'), 'utf8');
      const r = await offline.kbctx([
        'registry',
        'init',
        '--url',
        pathToFileURL(offline.path('no-such-remote.git')).href,
        '--path',
        offline.path('c'),
      ]);
      assert.equal(r.code, 1);
      assert.match(r.stderr, /could not clone .*check the URL and your network/);
      assert.equal(readFileSync(offline.path('config/kbctx.toml'), 'utf8'), before);
      assert.ok(!existsSync(offline.path('c')));
    } finally {
      offline.cleanup();
    }
  });
});
