// An agent's resolved prompt as a script or an extension returned it, checked: a \`system\` string,
// tools (the declared ones unless given) and user/assistant messages.
import { KbctxError } from '../../domain/errors.ts';
import type { PromptMessage, ResolvedPrompt } from '../agents.ts';
import { asArray, asString } from './values.ts';

export function parsePrompt(prompt: Record<string, unknown>, declaredTools: readonly string[], label: string): ResolvedPrompt {
  const fail = (why: string): KbctxError => new KbctxError('script_error', `${label}: agent.resolve ${why}`);
  if (typeof prompt['system'] !== 'string') throw fail('must return a table with a `system` string');
  const tools = prompt['tools'] === undefined ? [...declaredTools] : asArray(prompt['tools'], `${label}: resolve().tools`).map(String);
  const messages = asArray(prompt['messages'], `${label}: resolve().messages`).map((m, i): PromptMessage => {
    const msg = (m ?? {}) as Record<string, unknown>;
    const role = msg['role'] ?? 'assistant';
    if (role !== 'user' && role !== 'assistant') throw fail(`messages[${i + 1}].role must be "user" or "assistant", got ${JSON.stringify(role)}`);
    return { role, content: asString(msg['content']) ?? '' };
  });
  return { system: prompt['system'], tools, messages };
}
