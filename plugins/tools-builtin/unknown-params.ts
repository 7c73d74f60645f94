// Rejects parameters a tool does not declare, so a misspelt or unsupported argument is a bad_request
// naming it instead of being silently dropped. Used by the built-in tools (script tools keep extra
// keys: Context Harness scripts rely on that).
import { badRequest } from '../../core/api/plugin.ts';

export function rejectUnknownParams(
  input: Readonly<Record<string, unknown>>,
  known: readonly string[],
  prefix = '',
): void {
  const unknown = Object.keys(input).filter((k) => !known.includes(k) && input[k] !== undefined);
  if (unknown.length === 0) return;
  const names = unknown.map((k) => `'${prefix}${k}'`).join(', ');
  throw badRequest(
    `unknown parameter${unknown.length > 1 ? 's' : ''} ${names}; accepted: ${known.map((k) => prefix + k).join(', ')}`,
    {
      parameter: `${prefix}${unknown[0]}`,
    },
  );
}
