// The web page tests' knowledge base: a few Markdown and text documents with fixed update times (so
// screenshots are stable), a hostile document, a Lua tool that can time out, and an inline agent.
import { utimesSync } from 'node:fs';
import { Workspace } from '../helpers/workspace.ts';

export const WEB_DOCS: Record<string, string> = {
  'docs/fox.md': [
    '# Foxes of the northern woods',
    '',
    'The quick brown fox jumps over the lazy dog. Foxes live in dens and hunt at dusk.',
    '',
    '## Tracking a fox',
    '',
    '- Look for tracks in fresh snow',
    '- Listen for the bark at night',
    '',
    '```sh',
    'kbctx search "fox dens" --explain',
    '```',
    '',
    'See the [field guide](https://example.org/foxes) for more.',
  ].join('\n'),
  'docs/arctic-fox.md': '# Arctic fox\n\nThe arctic fox turns white in winter; a fox of the tundra.\n',
  'docs/fennec.md':
    '# Fennec fox\n\nThe fennec fox of the Sahara has the largest ears of any fox, to shed the heat of the day.\n',
  'docs/reading.md':
    '# Reading list\n\nThe [guide](https://example.org/guide), [dens](#dens), [tundra notes](tundra.md).\n\n![A ' +
    'den](https://example.org/den.png)\n',
  'docs/sqlite.md': '# SQLite WAL\n\nWrite-ahead logging lets readers continue while a writer commits.\n',
  'docs/notes/tea.txt': 'Green tea is brewed at 80 degrees for two minutes.\n',
  'docs/hostile.md': [
    '# Hostile page',
    '',
    'A hostile document that tries to run script.',
    '',
    "<script>window.__pwned = 'script'</script>",
    '',
    '<img src="x" onerror="window.__pwned = \'onerror\'">',
    '',
    "[markdown link](javascript:window.__pwned='md-link')",
    '',
    '<a href="javascript:window.__pwned=\'html-link\'" id="evil">html link</a>',
    '',
    '<iframe src="javascript:window.__pwned=\'iframe\'"></iframe>',
    '',
    "<svg><script>window.__pwned = 'svg'</script></svg>",
    '',
    '<form action="https://example.org"><input name="x"><button>Send</button></form>',
  ].join('\n'),
};

export const WEB_CONFIG = `
[connectors.filesystem.docs]
root = "docs"

[tools.script.shout]
path = "tools/shout.lua"
timeout = 1

[agents.inline.helper]
description = "Answers questions from the knowledge base"
tools = ["search", "get"]
system_prompt = "You answer from the knowledge base. Search first."
`;

const SHOUT = `tool = { description = "Shouts text back; slow = true runs past the time-out", parameters = {
  { name = "text", type = "string", required = true, description = "What to shout" },
  { name = "slow", type = "boolean", description = "Loop forever, to see a time-out" },
  { name = "fail", type = "boolean", description = "Raise an error, to see a script error" } } }
function tool.execute(p)
  if p.slow then while true do end end
  if p.fail then error("shouting failed") end
  return { text = string.upper(p.text) .. "!" }
end
`;

const FIXED_TIME = new Date('2026-01-15T10:00:00Z');

/** A synced workspace; `extraToml` is appended to the config (e.g. a [server] section). */
export async function createWebWorkspace(extraToml = ''): Promise<Workspace> {
  const ws = new Workspace('kbctx-web-');
  for (const [file, text] of Object.entries(WEB_DOCS)) utimesSync(ws.write(file, text), FIXED_TIME, FIXED_TIME);
  ws.write('tools/shout.lua', SHOUT);
  ws.config(WEB_CONFIG + extraToml);
  const sync = await ws.kbctx(['sync', 'all']);
  if (sync.code !== 0) throw new Error(`sync failed: ${sync.stderr}`);
  return ws;
}
