// Tests for the {{name}} extension: calls it with a host that records what it registers, then runs
// the tool, the agent and the connector directly. Run: node --test {{test}}
import assert from 'node:assert/strict';
import { test } from 'node:test';
import extension from './{{file}}';

async function load() {
  const registered = { tools: new Map(), agents: new Map(), connectors: new Map() };
  await extension({
    version: 'test',
    registerTool: (t) => registered.tools.set(t.name, t),
    registerAgent: (a) => registered.agents.set(a.name, a),
    registerConnector: (c) => registered.connectors.set(c.type, c),
  });
  return registered;
}

test('the {{name}} tool answers', async () => {
  const { tools } = await load();
  const result = await tools.get('{{name}}').execute({ text: 'hello' }, { signal: AbortSignal.timeout(5000) });
  assert.deepEqual(result, { text: 'hello', length: 5 });
});

test('the {{name}}_agent prompt names what search found', async () => {
  const { agents } = await load();
  const context = { search: async () => ({ results: [{ title: 'Runbook' }] }), get: async () => ({}), sources: async () => ({ sources: [] }) };
  const prompt = await agents.get('{{name}}_agent').resolve({ topic: 'deploys' }, { signal: AbortSignal.timeout(5000), context });
  assert.equal(prompt.system, 'Help with deploys. Start from: Runbook.');
});

test('the {{name}} connector yields its items', async () => {
  const { connectors } = await load();
  const items = [];
  for await (const item of connectors.get('{{name}}').scan({ greeting: 'hi' }, { signal: AbortSignal.timeout(5000), name: 'main' })) items.push(item);
  assert.deepEqual(items.map((i) => [i.source_id, i.body]), [['welcome', 'hi from {{name}}']]);
});
