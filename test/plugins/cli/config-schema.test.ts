// `kbctx config schema` (issue 30): the config's JSON Schema assembled from the loaded plugins — the
// kernel's keys, the bundled plugins' sections and a configured plugin's connector types. Real CLI in
// a temp workspace; the printed schema is checked with ajv as an editor would.
import assert from 'node:assert/strict';
import { after, before, it } from 'node:test';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { parse } from 'smol-toml';
import { Workspace } from '../../helpers/workspace.ts';

const PLUGIN = `export default {
  name: 'tickets',
  version: '1.0.0',
  kbctx: '^0.2',
  connectorConfigs: {
    tickets: { schema: { type: 'object', properties: { project: { type: 'string' } }, required: ['project'],
      additionalProperties: false } },
  },
  apply(kernel) {
    kernel.hooks.createConnector.for('tickets').tapPromise('tickets', async () => ({ async *scan() {} }));
  },
};
`;

const CONFIG = `plugins = ["bundled", "./tickets.mjs"]
[db]
path = "data/kb.sqlite"
[server]
bind = "127.0.0.1:7331"
[connectors.filesystem.docs]
root = "docs"
[connectors.tickets.eng]
project = "ENG"
`;

const ws = new Workspace('kbctx-config-schema-');
before(() => {
  ws.write('tickets.mjs', PLUGIN);
  ws.write('config/kbctx.toml', CONFIG);
});
after(() => ws.cleanup());

it(
  'prints the JSON Schema of the config with the bundled ' +
    "plugins' sections and a configured plugin's connector type",
  async () => {
    const r = await ws.kbctx(['config', 'schema']);
    assert.equal(r.code, 0, r.stderr);
    const schema = JSON.parse(r.stdout) as {
      properties: { server: unknown; connectors: { properties: Record<string, unknown> } };
    };
    assert.ok(schema.properties.server, "[server]: transport-http's section");
    assert.deepEqual(
      Object.keys(schema.properties.connectors.properties).filter((t) => ['filesystem', 'tickets'].includes(t)),
      ['filesystem', 'tickets'],
    );
    const validate = new Ajv2020({ allErrors: true, strict: false }).compile(schema);
    assert.equal(validate(parse(CONFIG)), true, JSON.stringify(validate.errors));
    assert.equal(
      validate(parse(CONFIG.replace('project = "ENG"', 'project = 5'))),
      false,
      "the plugin's own schema checks its tables",
    );
    assert.equal(validate(parse('[server]\nworkers = "two"\n')), false);
  },
);

it('is listed in help, from the cli plugin', async () => {
  const r = await ws.kbctx(['--help']);
  assert.match(r.stdout, /config\s+the config file/);
});
