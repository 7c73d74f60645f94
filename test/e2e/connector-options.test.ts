// ADR 0164: a third-party connector type's options are checked against the JSON Schema its plugin
// declares (`connectorConfigs`), defaults applied, a bad option a config error naming the key path,
// as the bundled connector types' are. Real CLI, real plugin file, real SQLite index.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { runKbctx, Workspace } from '../helpers/workspace.ts';

const PLUGIN = `export default {
  name: 'tickets',
  version: '1.0.0',
  kbctx: '^0.2',
  connectorConfigs: {
    tickets: {
      schema: {
        type: 'object',
        properties: { project: { type: 'string' }, page_size: { type: 'integer', minimum: 1, default: 50 } },
        required: ['project'],
        additionalProperties: false,
      },
    },
    // A keyword outside the loader's own subset (pattern): checked with ajv.
    queues: { schema: { type: 'object', properties: { key: { type: 'string', pattern: '^[A-Z]+$' } },
      required: ['key'] } },
  },
  apply(kernel) {
    for (const type of ['tickets', 'queues']) {
      kernel.hooks.createConnector.for(type).tapPromise('tickets', async (instance) => ({
        async *scan() {
          yield { source_id: 'options', title: 'Options of ' + instance.name,
            body: 'options ' + JSON.stringify(instance.options) };
        },
      }));
    }
  },
};
`;

let ws: Workspace;
const cli = (config: string, args: string[]) => {
  ws.write('kbctx.toml', `plugins = ["bundled", "./tickets.mjs"]\n[db]\npath = "data/kb.sqlite"\n${config}`);
  return runKbctx(['-c', 'kbctx.toml', ...args], { cwd: ws.dir });
};

before(() => {
  ws = new Workspace();
  ws.write('tickets.mjs', PLUGIN);
});
after(() => ws.cleanup());

describe("a third-party connector type's options", () => {
  it('a bad option is a config error naming the key path and the plugin', async () => {
    const wrongType = await cli('[connectors.tickets.main]\nproject = 5\n', ['sync', 'all']);
    assert.equal(wrongType.code, 3, wrongType.stderr);
    assert.match(
      wrongType.stderr,
      /kbctx\.toml: connectors\.tickets\.main\.project must be a string, got number 5 \(checked by plugin 'tickets'\)/,
    );
    const unknown = await cli('[connectors.tickets.main]\nproject = "ENG"\npage_sise = 10\n', ['sync', 'all']);
    assert.match(unknown.stderr, /kbctx\.toml: connectors\.tickets\.main\.page_sise is not a known key/);
    const missing = await cli('[connectors.tickets.main]\npage_size = 10\n', ['search', 'x']);
    assert.match(missing.stderr, /kbctx\.toml: connectors\.tickets\.main\.project is required/);
  });

  it('a schema outside the small subset is checked with ajv, naming the key path', async () => {
    const r = await cli('[connectors.queues.q]\nkey = "lower"\n', ['sync', 'all']);
    assert.equal(r.code, 3, r.stderr);
    assert.match(
      r.stderr,
      /kbctx\.toml: connectors\.queues\.q\.key must match pattern "\^\[A-Z\]\+\$" \(checked by plugin 'tickets'\)/,
    );
  });

  it('the connector receives its options with the defaults applied', async () => {
    const config = '[connectors.tickets.main]\nproject = "ENG"\n';
    const sync = await cli(config, ['sync', 'all']);
    assert.equal(sync.code, 0, sync.stderr);
    const found = await cli(config, ['search', 'options', '--json']);
    const id = (JSON.parse(found.stdout) as { results: { id: string }[] }).results[0]!.id;
    const doc = await cli(config, ['get', id, '--json']);
    assert.match(doc.stdout, /options \{\\"project\\":\\"ENG\\",\\"page_size\\":50/);
  });
});
