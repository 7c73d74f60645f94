// The cli plugin's commands come through the `commands` hook like every plugin's (ADR 0190): dropped
// (`"!cli"`), init, sync, doctor, … are unknown commands (exit 2, the hint names the plugin) while other
// plugins' commands still run; a config that does not load still gets them (doctor reports the config).
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { runKbctx, Workspace } from '../../helpers/workspace.ts';

let ws: Workspace;
const cli = (config: string, args: string[]) => runKbctx(['-c', config, ...args], { cwd: ws.dir });
const listed = (help: string): string[] =>
  [...help.slice(help.indexOf('Commands:')).matchAll(/^ {2}(\w+)/gm)].map((m) => m[1]!);

before(async () => {
  ws = new Workspace();
  ws.write('docs/a.md', '# Ospreys\n\nOspreys fish in rivers.');
  const sections = '[db]\npath = "data/kb.sqlite"\n[connectors.filesystem.docs]\nroot = "docs"\n';
  ws.write('full.toml', sections);
  ws.write('nocli.toml', `plugins = ["bundled", "!cli"]\n${sections}`);
  ws.write('bad.toml', '[retrieval]\nhybrid_alpha = 2\n');
  assert.equal((await cli('full.toml', ['sync', 'all'])).code, 0);
});
after(() => ws.cleanup());

describe('plugins = ["bundled", "!cli"]', () => {
  it("the cli plugin's commands are unknown (exit 2), the hint naming the plugin", async () => {
    for (const args of [['sync', 'all'], ['init'], ['doctor'], ['plugins'], ['config', 'schema']]) {
      const r = await cli('nocli.toml', args);
      assert.equal(r.code, 2, `${args.join(' ')}: ${r.stderr}`);
      assert.match(r.stderr, new RegExp(`unknown command '${args[0]}'`));
      assert.match(
        r.stderr,
        /plugins drops 'cli' \("!cli"\), whose commands are init, sync, .*doctor, plugins, config\)/,
      );
    }
  });

  it("other plugins' commands still run, and help lists only them", async () => {
    const search = await cli('nocli.toml', ['search', 'ospreys']);
    assert.equal(search.code, 0, search.stderr);
    assert.match(search.stdout, /Ospreys/);
    const help = listed((await cli('nocli.toml', ['--help'])).stdout);
    assert.ok(help.includes('search') && help.includes('stats'), help.join(' '));
    for (const gone of ['init', 'sync', 'embed', 'serve', 'doctor', 'plugins', 'completions', 'config'])
      assert.ok(!help.includes(gone), `${gone} is not listed: ${help.join(' ')}`);
  });
});

describe('a config that does not load', () => {
  it("help still lists the cli plugin's commands; doctor runs and reports the config (exit 3)", async () => {
    const help = await cli('bad.toml', ['--help']);
    assert.equal(help.code, 0, help.stderr);
    assert.deepEqual(listed(help.stdout).slice(0, 3), ['init', 'sync', 'embed']);
    const doctor = await cli('bad.toml', ['doctor']);
    assert.equal(doctor.code, 3);
    assert.match(doctor.stdout, /^FAIL {2}config {5}bad\.toml: retrieval\.hybrid_alpha must be between 0 and 1/m);
  });

  it("another plugin's command is the config error (exit 3)", async () => {
    const r = await cli('bad.toml', ['search', 'ospreys']);
    assert.equal(r.code, 3);
    assert.equal(r.stderr, 'error: bad.toml: retrieval.hybrid_alpha must be between 0 and 1\n');
  });
});
