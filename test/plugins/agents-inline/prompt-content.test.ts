// A resolved prompt's messages: text everywhere; MCP content blocks only from JavaScript agents
// (`blocks`), each checked for what MCP needs of its kind (ADR 0153).
import assert from 'node:assert/strict';
import { it } from 'node:test';
import { parsePrompt } from '../../../plugins/agents-inline/agents/prompt.ts';

const IMAGE = { type: 'image', data: 'iVBOR', mimeType: 'image/png' };

it("keeps a JavaScript agent's content block as given, text as text", () => {
  const prompt = parsePrompt(
    {
      system: '',
      messages: [
        { role: 'user', content: IMAGE },
        { role: 'user', content: 'Look.' },
      ],
    },
    [],
    'agent:a',
    { blocks: true },
  );
  assert.deepEqual(prompt.messages, [
    { role: 'user', content: IMAGE },
    { role: 'user', content: 'Look.' },
  ]);
});

it('names the message and the missing field of a malformed block (script_error)', () => {
  const parse = (content: unknown): unknown =>
    parsePrompt({ system: '', messages: [{ role: 'user', content }] }, [], 'agent:a', { blocks: true });
  assert.throws(() => parse({ type: 'image', data: 'x' }), {
    code: 'script_error',
    message: 'agent:a: agent.resolve messages[1].content (image) needs a string `mimeType`',
  });
  assert.throws(() => parse({ type: 'video' }), {
    code: 'script_error',
    message: /messages\[1\]\.content\.type must be one of text, image, audio, resource, resource_link, got "video"/,
  });
  assert.throws(() => parse({ type: 'resource', resource: { uri: 'x://y' } }), {
    code: 'script_error',
    message: /needs `resource: \{uri, text \| blob\}`/,
  });
});

it('leaves Lua agents (no blocks) as before: a table as content is empty text', () => {
  const prompt = parsePrompt({ system: 's', messages: [{ role: 'user', content: IMAGE }] }, [], 'agent:lua');
  assert.deepEqual(prompt.messages, [{ role: 'user', content: '' }]);
});
