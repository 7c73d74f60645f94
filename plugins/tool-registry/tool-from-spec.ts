// A tool with a deadline (a plugin's `tools.add` with `timeout` or `inputSchema`; an extension's
// registerTool through its adapter) checked and turned into the app's Tool: parameters (JSON Schema or
// the script-tool list) become ParamSpecs, so ToolRegistry validates them like any tool; a JSON Schema
// object is also kept whole (`inputSchema`), advertised and checked exactly as declared.
import type { ParamSpec, ToolClient } from '../../core/api/plugin.ts';
import { invalid, runWithDeadline } from '../../core/index.ts';
import { parseParamList } from './param-list.ts';
import { NO_TOOL_CLIENT, PARAM_TYPES } from './api.ts';
import type { Tool, ToolSchema } from './registry-types.ts';

const NAME = /^[A-Za-z0-9_-]{1,64}$/;

/** What tool-from-plugin.ts and the extensions plugin's adapter hand in (errors name it as `registerTool(name)`). */
export interface ToolSpec {
  name: string;
  description?: string | undefined;
  /** A JSON Schema object or the script-tool parameter list. */
  parameters?: unknown;
  timeout?: number | undefined;
  readOnly?: boolean | undefined;
  execute(params: Record<string, unknown>, ctx: { signal: AbortSignal; client: ToolClient }): unknown;
}

export function toolFromSpec(def: ToolSpec, defaultTimeoutSecs: number): Tool {
  const { where, label, timeoutSecs, description } = specHead(def, 'tool', 'execute', defaultTimeoutSecs);
  const inputSchema = declaredSchema(def.parameters, where);
  const params = inputSchema
    ? paramsOf(inputSchema)
    : parseParamList(toParamList(def.parameters, where), `tool:${def.name}`);
  return {
    name: def.name,
    description,
    params,
    inputSchema,
    builtin: false,
    readOnly: def.readOnly === true,
    run: (params, ctx) =>
      runWithDeadline(
        label,
        timeoutSecs,
        ctx.signal,
        async (signal) => (await def.execute(params, { signal, client: ctx.client ?? NO_TOOL_CLIENT })) ?? null,
      ),
  };
}

/** The script-tool list; absent is none. */
function toParamList(parameters: unknown, where: string): unknown[] {
  if (parameters === undefined || parameters === null) return [];
  if (Array.isArray(parameters)) return parameters;
  throw invalid(`${where}: \`parameters\` must be a JSON Schema object or a list of parameters`);
}

/**
 * A declared schema's top-level properties as ParamSpecs, for what the schema alone cannot say:
 * required with null as absent, defaults, the default string bound, string values on the CLI. Types
 * are a best guess (`["string", "null"]` is a string); validation is the schema's (validateParams).
 */
function paramsOf(schema: ToolSchema): ParamSpec[] {
  const required = Array.isArray(schema.required) ? schema.required : [];
  const properties = isObject(schema.properties) ? (schema.properties as Record<string, unknown>) : {};
  return Object.entries(properties).map(([name, raw]): ParamSpec => {
    const p = isObject(raw) ? (raw as Record<string, unknown>) : {};
    const types = Array.isArray(p['type']) ? (p['type'] as unknown[]) : [p['type']];
    const type = PARAM_TYPES.find((t) => types.includes(t)) ?? 'object'; // 'string' first: it decides CLI values
    return {
      name,
      type,
      required: required.includes(name),
      ...(typeof p['description'] === 'string' ? { description: p['description'] } : {}),
      ...(p['default'] !== undefined ? { default: p['default'] } : {}),
      ...(typeof p['maxLength'] === 'number' ? { maxLength: p['maxLength'] } : {}),
    };
  });
}

const isObject = (value: unknown): boolean => value !== null && typeof value === 'object' && !Array.isArray(value);

/** A parameters object as declared (only `type: "object"` added when left out, as MCP requires); a list has none. */
function declaredSchema(parameters: unknown, where: string): ToolSchema | undefined {
  if (!isObject(parameters)) return undefined;
  const schema = parameters as Record<string, unknown>;
  if (schema['type'] !== undefined && schema['type'] !== 'object')
    throw invalid(`${where}: \`parameters.type\` must be "object"`);
  return { ...schema, type: 'object' };
}

/**
 * What a tool and an agent spec share, checked: the name, `execute`/`resolve` a function, the timeout; and what follows
 * from them (errors name the spec as `registerTool(name)` / `registerAgent(name)`).
 */
export function specHead(
  def: { name: string; description?: string | undefined; timeout?: number | undefined },
  kind: 'tool' | 'agent',
  fn: 'execute' | 'resolve',
  defaultTimeoutSecs: number,
): { where: string; label: string; timeoutSecs: number; description: string } {
  const where = `${kind === 'tool' ? 'registerTool' : 'registerAgent'}(${JSON.stringify(def?.name)})`;
  checkName(def?.name, where);
  if (typeof (def as unknown as Record<string, unknown>)[fn] !== 'function')
    throw invalid(`${where}: \`${fn}\` must be a function`);
  const { name, description } = def;
  return {
    where,
    label: `${kind}:${name}`,
    timeoutSecs: timeoutOf(def.timeout, defaultTimeoutSecs, where),
    description:
      typeof description === 'string' && description.trim() !== '' ? description : `Extension ${kind}: ${name}`,
  };
}

export function checkName(name: unknown, where: string): asserts name is string {
  if (typeof name !== 'string' || !NAME.test(name))
    throw invalid(`${where}: \`name\` must be 1-64 letters, digits, '_' or '-'`);
}

function timeoutOf(value: unknown, fallback: number, where: string): number {
  if (value === undefined) return fallback;
  if (typeof value !== 'number' || !(value > 0))
    throw invalid(`${where}: \`timeout\` must be a positive number of seconds`);
  return value;
}
