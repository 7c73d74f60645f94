// A script tool's declaration (`tool.name/version/description/parameters`, read in the sandbox)
// checked and turned into ParamSpecs, with Context Harness defaults (type string, not required).
import { KbctxError } from '../../domain/errors.ts';
import { PARAM_TYPES, type ParamSpec, type ParamType } from '../../tools/param-spec.ts';
import { asArray, asString } from './values.ts';

export interface ToolMeta {
  name: string | undefined;
  version: string | undefined;
  description: string;
  params: ParamSpec[];
}

export function parseToolMeta(raw: unknown, registeredName: string): ToolMeta {
  const meta = (raw ?? {}) as Record<string, unknown>;
  const label = `tool:${registeredName}`;
  const params = asArray(meta['parameters'], `${label}: tool.parameters`).map((p, i) =>
    parseParam(p, `${label}: tool.parameters[${i + 1}]`),
  );
  const description = asString(meta['description']);
  return {
    name: asString(meta['name']),
    version: asString(meta['version']),
    description: description && description.trim() !== '' ? description : `Lua tool: ${registeredName}`,
    params,
  };
}

function parseParam(raw: unknown, where: string): ParamSpec {
  const fail = (why: string): KbctxError => new KbctxError('script_error', `${where}: ${why}`);
  if (raw === null || typeof raw !== 'object' || Array.isArray(raw)) throw fail('must be a table');
  const p = raw as Record<string, unknown>;
  if (typeof p['name'] !== 'string' || p['name'] === '') throw fail('needs a `name` (string)');
  const type = p['type'] ?? 'string';
  if (typeof type !== 'string' || !PARAM_TYPES.includes(type as ParamType))
    throw fail(`type must be one of ${PARAM_TYPES.join(', ')}, got ${String(type)}`);
  if (p['required'] !== undefined && typeof p['required'] !== 'boolean') throw fail('`required` must be a boolean');
  if (p['description'] !== undefined && typeof p['description'] !== 'string')
    throw fail('`description` must be a string');
  const spec: ParamSpec = { name: p['name'], type: type as ParamType, required: p['required'] === true };
  if (typeof p['description'] === 'string') spec.description = p['description'];
  if (p['default'] !== undefined) spec.default = p['default'];
  if (p['enum'] !== undefined) spec.enum = asArray(p['enum'], `${where}: enum`);
  if (typeof p['maxLength'] === 'number') spec.maxLength = p['maxLength'];
  // Every other JSON Schema keyword (items, pattern, minimum, nested properties/required,
  // additionalProperties …) is checked by ajv, the same way on REST, MCP and the CLI.
  const rest = Object.fromEntries(Object.entries(p).filter(([key]) => !SPEC_KEYS.has(key)));
  if (Array.isArray(p['requiredKeys'])) rest['required'] = p['requiredKeys'];
  if (Object.keys(rest).length > 0) spec.schema = rest;
  return spec;
}

/**
 * The keys ParamSpec holds itself; the rest of a parameter's JSON Schema goes to `schema` (`requiredKeys`: an object
 * parameter's own `required`).
 */
const SPEC_KEYS = new Set(['name', 'type', 'required', 'requiredKeys', 'description', 'default', 'enum', 'maxLength']);
