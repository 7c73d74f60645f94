// An agent's resolved prompt as a script or an extension returned it, checked: a \`system\` string,
// tools (the declared ones unless given) and user/assistant messages, whose content is text or, from
// JavaScript agents (\`blocks\`), an MCP content block (image, embedded resource …).
import { asArray, asString, KbctxError } from '../../../core/index.ts';
import { parseContentBlock } from './content-block.ts';
import type { PromptMessage, ResolvedPrompt } from '../agent-types.ts';

/**
 * `blocks`: a message's \`content\` may be an MCP content block (object with a \`type\`); otherwise (Lua) only text.
 */
export function parsePrompt(
  prompt: Record<string, unknown>,
  declaredTools: readonly string[],
  label: string,
  { blocks = false }: { blocks?: boolean } = {},
): ResolvedPrompt {
  const fail = (why: string): KbctxError => new KbctxError('script_error', `${label}: agent.resolve ${why}`);
  if (typeof prompt['system'] !== 'string') throw fail('must return a table with a `system` string');
  const tools =
    prompt['tools'] === undefined
      ? [...declaredTools]
      : asArray(prompt['tools'], `${label}: resolve().tools`).map(String);
  const messages = asArray(prompt['messages'], `${label}: resolve().messages`).map((m, i): PromptMessage => {
    const msg = (m ?? {}) as Record<string, unknown>;
    const role = msg['role'] ?? 'assistant';
    if (role !== 'user' && role !== 'assistant')
      throw fail(`messages[${i + 1}].role must be "user" or "assistant", got ${JSON.stringify(role)}`);
    const content = msg['content'];
    if (blocks && content !== null && typeof content === 'object' && !Array.isArray(content)) {
      return {
        role,
        content: parseContentBlock(
          content as Record<string, unknown>,
          `${label}: agent.resolve messages[${i + 1}].content`,
        ),
      };
    }
    return { role, content: asString(content) ?? '' };
  });
  return { system: prompt['system'], tools, messages };
}
