// An extension's registerTool definition checked and turned into the app's Tool: parameters (JSON
// Schema or the script-tool list) become ParamSpecs, so ToolRegistry validates them like any tool.
import type { Tool } from './tools.ts';
import { KbctxError } from '../domain/errors.ts';
import { parseToolMeta } from './part-values/tool-meta.ts';
import type { ExtensionTool } from './extension-api.ts';
import { runWithDeadline } from './run-with-deadline.ts';
import { NO_TOOL_CLIENT } from './tool-client.ts';

const NAME = /^[A-Za-z0-9_-]{1,64}$/;

export function toExtensionTool(def: ExtensionTool, defaultTimeoutSecs: number): Tool {
  const where = `registerTool(${JSON.stringify(def?.name)})`;
  checkName(def?.name, where);
  if (typeof def.execute !== 'function') throw invalid(`${where}: \`execute\` must be a function`);
  const label = `tool:${def.name}`;
  const meta = parseToolMeta({ description: def.description, parameters: toParamList(def.parameters, where) }, def.name);
  const timeoutSecs = timeoutOf(def.timeout, defaultTimeoutSecs, where);
  return {
    name: def.name,
    description: typeof def.description === 'string' && def.description.trim() !== '' ? def.description : `Extension tool: ${def.name}`,
    params: meta.params,
    builtin: false,
    readOnly: def.readOnly === true,
    run: (params, ctx) => runWithDeadline(label, timeoutSecs, ctx.signal, async (signal) => (await def.execute(params, { signal, client: ctx.client ?? NO_TOOL_CLIENT })) ?? null),
  };
}

/** A JSON Schema object (`properties` + `required`) as the script-tool list; a list passes through. */
function toParamList(parameters: unknown, where: string): unknown[] {
  if (parameters === undefined || parameters === null) return [];
  if (Array.isArray(parameters)) return parameters;
  if (typeof parameters !== 'object') throw invalid(`${where}: \`parameters\` must be a JSON Schema object or a list of parameters`);
  const schema = parameters as { type?: unknown; properties?: unknown; required?: unknown };
  if (schema.type !== undefined && schema.type !== 'object') throw invalid(`${where}: \`parameters.type\` must be "object"`);
  const required = Array.isArray(schema.required) ? schema.required : [];
  const properties = (schema.properties ?? {}) as Record<string, Record<string, unknown>>;
  // A parameter's own `required` (an object's required keys) is kept apart from whether it is required.
  return Object.entries(properties).map(([name, { required: nested, ...p }]) => ({ ...p, name, required: required.includes(name), ...(Array.isArray(nested) ? { requiredKeys: nested } : {}) }));
}

export function checkName(name: unknown, where: string): asserts name is string {
  if (typeof name !== 'string' || !NAME.test(name)) throw invalid(`${where}: \`name\` must be 1-64 letters, digits, '_' or '-'`);
}

export function timeoutOf(value: unknown, fallback: number, where: string): number {
  if (value === undefined) return fallback;
  if (typeof value !== 'number' || !(value > 0)) throw invalid(`${where}: \`timeout\` must be a positive number of seconds`);
  return value;
}

export const invalid = (message: string): KbctxError => new KbctxError('script_error', message);
