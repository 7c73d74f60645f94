// docs/registries.md's complete registry.toml example is a manifest kbctx reads as documented: every
// entry, with its keys, and no warning (the example cannot drift from the parser).
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { it } from 'node:test';
import { loadManifest } from '../registry/manifest.ts';
import { REPO_ROOT } from './helpers/workspace.ts';

it('the registry.toml example in docs/registries.md loads whole, without a warning', () => {
  const doc = readFileSync(path.join(REPO_ROOT, 'docs/registries.md'), 'utf8');
  const section = doc.slice(doc.indexOf('## registry.toml'));
  const example = /```toml\n([\s\S]*?)```/.exec(section)?.[1];
  assert.ok(
    example && section.startsWith('## registry.toml'),
    'docs/registries.md has a registry.toml section with a toml example',
  );
  const dir = mkdtempSync(path.join(tmpdir(), 'kbctx-registry-doc-'));
  try {
    writeFileSync(path.join(dir, 'registry.toml'), example);
    for (const file of ['connectors/jira/connector.lua', 'tools/web-fetch/tool.lua', 'agents/triage/agent.lua']) {
      mkdirSync(path.dirname(path.join(dir, file)), { recursive: true });
      writeFileSync(path.join(dir, file), '-- example\n');
    }
    const manifest = loadManifest(dir);
    assert.equal(manifest.warning, null);
    assert.deepEqual(manifest.refused, []);
    assert.equal(manifest.name, 'acme');
    assert.equal(manifest.url, 'https://github.com/acme/kbctx-registry.git');
    assert.equal(manifest.minVersion, '0.2.0');
    assert.deepEqual(manifest.extensions.connectors['jira'], {
      path: 'connectors/jira/connector.lua',
      description: 'Jira issues of one project',
      tags: ['tickets', 'atlassian'],
      requiredConfig: ['url', 'project', 'token'],
      hostApis: ['http', 'env'],
      tools: [],
    });
    assert.deepEqual(Object.keys(manifest.extensions.tools), ['web-fetch']);
    assert.deepEqual(manifest.extensions.agents['triage']?.tools, ['search', 'get', 'web-fetch']);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
