// An MCP content block a JavaScript agent put in a prompt message, checked: what MCP's `prompts/get`
// needs of each kind (text, image, audio, embedded resource, resource link). The block is kept as
// given (annotations, `_meta` pass through); MCP sends it as the message's content.
import { KbctxError, type PromptContentBlock } from '../../../core/api/plugin.ts';

const REQUIRED: Record<PromptContentBlock['type'], readonly string[]> = {
  text: ['text'],
  image: ['data', 'mimeType'],
  audio: ['data', 'mimeType'],
  resource: [],
  resource_link: ['uri', 'name'],
};

/** The block, or a script_error naming `where` and what is missing. */
export function parseContentBlock(value: Record<string, unknown>, where: string): PromptContentBlock {
  const fail = (why: string): KbctxError => new KbctxError('script_error', `${where}${why}`);
  const type = value['type'];
  if (typeof type !== 'string' || !Object.hasOwn(REQUIRED, type))
    throw fail(`.type must be one of ${Object.keys(REQUIRED).join(', ')}, got ${JSON.stringify(type)}`);
  for (const field of REQUIRED[type as PromptContentBlock['type']])
    if (typeof value[field] !== 'string') throw fail(` (${type}) needs a string \`${field}\``);
  if (type === 'resource') {
    const resource = value['resource'] as Record<string, unknown> | null | undefined;
    if (
      typeof resource?.['uri'] !== 'string' ||
      (typeof resource['text'] !== 'string' && typeof resource['blob'] !== 'string')
    )
      throw fail(' (resource) needs `resource: {uri, text | blob}` (strings)');
  }
  return value as PromptContentBlock;
}
