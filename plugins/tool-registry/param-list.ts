// The parameter list form of a tool's parameters (a script tool's `tool.parameters`, a plugin's or extension's
// `parameters` given as a list) checked and turned into ParamSpecs, with Context Harness defaults (type string, not
// required); every other JSON Schema keyword of a parameter is kept for ajv.
import { KbctxError, type ParamSpec, type ParamType } from '../../core/api/plugin.ts';
import { asArray } from '../../core/index.ts';
import { PARAM_TYPES } from './api.ts';

/** `label` names the tool in errors (`tool:x`); `{}` (an empty script table) is no parameter. */
export function parseParamList(raw: unknown, label: string, what = 'tool.parameters'): ParamSpec[] {
  return asArray(raw, `${label}: ${what}`).map((p, i) => parseParam(p, `${label}: ${what}[${i + 1}]`));
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
