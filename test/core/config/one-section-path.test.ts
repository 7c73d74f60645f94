// ADR 0250: one path for every plugin's config sections. The same plugin object, handed in with the bundled set (its
// sections checked when the config loads) or listed in `plugins` (checked when it is applied), gets the same checks,
// the same defaults and `toConfig`, the same error (the key path and the plugin), and reads its section the same way
// (`sectionOf`); a top-level table no loaded plugin declares is unknown either way.
import assert from 'node:assert/strict';
import { after, describe, it } from 'node:test';
import { BUNDLED_PLUGINS } from '../../../registry/bundled.ts';
import { openKbctx } from '../../../core/app/compose.ts';
import { registerConfigSections } from '../../../core/config/plugin-sections.ts';
import { parseConfigTree } from '../../../core/config/load-config.ts';
import { connectorsOf, sectionOf } from '../../../core/config/sections-of.ts';
import { hostService, type Config, type Plugin } from '../../../core/api/plugin.ts';
import { Workspace } from '../../helpers/workspace.ts';

interface Banner {
  text: string;
  width: number;
}
const seen: { banner?: Banner; feeds?: unknown } = {};

const feeds: Plugin = {
  name: 'feeds',
  version: '1.0.0',
  kbctx: '^0.2',
  configSections: {
    banner: {
      schema: {
        type: 'object',
        properties: { text: { type: 'string', default: 'hi' }, width: { type: 'integer', minimum: 1, default: 40 } },
        additionalProperties: false,
      },
      toConfig: (t, at) => (t['text'] === '' ? at.fail('text', 'must not be empty') : t),
    },
  },
  connectorConfigs: {
    feed: {
      schema: { type: 'object', properties: { url: { type: 'string' } }, required: ['url'] },
      toConfig: (t) => ({ href: t['url'] }),
    },
  },
  apply(kernel) {
    const { config } = kernel.use(hostService);
    seen.banner = sectionOf<Banner>(config, 'banner');
    seen.feeds = connectorsOf(config, 'feed');
  },
};

const ws = new Workspace('kbctx-one-section-path-');
after(() => {
  registerConfigSections(BUNDLED_PLUGINS);
  ws.cleanup();
});

const where = { file: 'k.toml', cwd: ws.dir, env: {} };
const db = { path: 'kb.sqlite' };

/** `tree` loaded with `feeds` handed in with the bundled set: the config error, or the config. */
function asBundled(tree: Record<string, unknown>): Config {
  registerConfigSections([...BUNDLED_PLUGINS, feeds]);
  try {
    return parseConfigTree({ db, ...tree }, where);
  } finally {
    registerConfigSections(BUNDLED_PLUGINS);
  }
}

/** `tree` loaded with `feeds` listed in `plugins`, applied; what it read of its sections. */
async function asConfigured(tree: Record<string, unknown>, plugins: unknown[] = ['bundled', feeds]): Promise<void> {
  const kbctx = openKbctx(parseConfigTree({ db, plugins, ...tree }, where), {});
  try {
    await kbctx.ready();
  } finally {
    await kbctx.close();
  }
}

const message = async (run: () => unknown): Promise<string> => {
  try {
    await run();
  } catch (error) {
    assert.equal((error as { code?: string }).code, 'config_error', String(error));
    return (error as Error).message;
  }
  return assert.fail('expected a config error');
};

describe('a bundled and a configured plugin take one path', () => {
  it('a bad value names the key path and the plugin, in the same words either way', async () => {
    const cases: [Record<string, unknown>, string][] = [
      [{ banner: { width: 0 } }, "k.toml: banner.width must be at least 1 (checked by plugin 'feeds')"],
      [{ banner: { colour: 'red' } }, 'k.toml: banner.colour is not a known key'],
      [{ banner: { text: '' } }, "k.toml: banner.text must not be empty (checked by plugin 'feeds')"],
      [
        { connectors: { feed: { news: {} } } },
        "k.toml: connectors.feed.news.url is required (checked by plugin 'feeds')",
      ],
    ];
    for (const [tree, expected] of cases) {
      const bundled = await message(() => asBundled(tree));
      assert.ok(bundled.startsWith(expected), `${bundled} starts with ${expected}`);
      assert.equal(await message(() => asConfigured(tree)), bundled);
    }
  });

  it('the plugin reads its sections the same way: defaults applied, made by its toConfig', async () => {
    const tree = { banner: { width: 12 }, connectors: { feed: { news: { url: 'https://x' } } } };
    const config = asBundled(tree);
    const bundled = { banner: sectionOf<Banner>(config, 'banner'), feeds: connectorsOf(config, 'feed') };
    assert.deepEqual(bundled, { banner: { text: 'hi', width: 12 }, feeds: { news: { href: 'https://x' } } });
    delete seen.banner;
    await asConfigured(tree);
    assert.deepEqual(seen, bundled);
    await asConfigured({});
    assert.deepEqual(seen.banner, { text: 'hi', width: 40 }, 'absent: all its defaults');
  });

  it('a top-level table no loaded plugin declares is unknown, before or after the plugins are applied', async () => {
    assert.match(await message(() => asBundled({ bannr: {} })), /^k\.toml: bannr is not a known key \(check the/);
    assert.match(
      await message(() => asConfigured({ bannr: {} })),
      /^k\.toml: bannr is not a known key .*; no loaded plugin declares it$/,
    );
  });

  it('a key the bundled set owns stays its own: a configured plugin declaring it changes nothing', async () => {
    const greedy: Plugin = {
      ...feeds,
      name: 'greedy',
      configSections: { server: { schema: { type: 'object' }, toConfig: () => 'mine' } },
      connectorConfigs: { filesystem: { schema: { type: 'object' }, toConfig: () => 'mine' } },
      apply(kernel) {
        const { config } = kernel.use(hostService);
        seen.feeds = connectorsOf(config, 'filesystem');
        seen.banner = sectionOf<Banner>(config, 'server');
      },
    };
    await asConfigured({ connectors: { filesystem: { docs: { root: '.' } } } }, ['bundled', greedy]);
    assert.equal(
      (seen.feeds as Record<string, { root: string }>)['docs']?.root,
      ws.dir,
      'connector-filesystem made it',
    );
    assert.notEqual(seen.banner, 'mine');
  });

  it("a configured plugin's section under a kernel table is refused, naming the plugin", async () => {
    const nested: Plugin = {
      ...feeds,
      name: 'nested',
      configSections: { 'tools.feed': { schema: { type: 'object' } } },
    };
    assert.match(
      await message(() => asConfigured({}, ['bundled', nested])),
      /^plugin 'nested' declares the section tools\.feed: a configured plugin's configSections are top-level/,
    );
  });
});
