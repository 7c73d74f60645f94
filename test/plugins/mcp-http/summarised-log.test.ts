// The summarised log of rejected MCP requests: one line per kind, repeats counted into one summary
// when the window ends or on close, a new window after that, and a cap on the kinds tracked.
import assert from 'node:assert/strict';
import { it } from 'node:test';
import { createSummarisedLog } from '../../../plugins/mcp-http/summarised-log.ts';

it(
  'writes the first line of a kind, counts repeats, ' + 'summarises them when the window ends, then writes again',
  async () => {
    const lines: string[] = [];
    const log = createSummarisedLog((l) => lines.push(l), { windowMs: 30, maxKinds: 8, prefix: 'mcp: ' });
    for (let i = 0; i < 5; i++) log.write('bad body', `mcp: bad body ${i}`);
    log.write('bad type', 'mcp: bad type');
    assert.deepEqual(lines, ['mcp: bad body 0', 'mcp: bad type']);
    // The window's end is a timer: wait for its line (bounded), not for a fixed time.
    for (let i = 0; i < 200 && lines.length < 3; i++) await new Promise((r) => setTimeout(r, 10));
    assert.equal(lines[2], 'mcp: 4 more like this in the last 0.03 s (bad body); the first was logged above');
    log.write('bad body', 'mcp: bad body again');
    assert.equal(lines.at(-1), 'mcp: bad body again', 'a new window writes at once');
    log.close();
    assert.equal(lines.length, 4, 'a kind without repeats has no summary');
  },
);

it('tracks at most maxKinds kinds; the rest are counted together as "other", summarised on close', () => {
  const lines: string[] = [];
  const log = createSummarisedLog((l) => lines.push(l), { windowMs: 60_000, maxKinds: 2, prefix: 'x: ' });
  for (const kind of ['a', 'b', 'c', 'd', 'e']) log.write(kind, `x: ${kind}`);
  assert.deepEqual(lines, ['x: a', 'x: b', 'x: c']);
  log.close();
  assert.deepEqual(lines.slice(3), ['x: 2 more like this in the last 60 s (other); the first was logged above']);
});
