// Tool parameters, declared once as a list of ParamSpec (the shape Lua tools declare too) and turned
// into both a JSON Schema and a validator. REST, MCP and the CLI validate through validateParams, so
// the three surfaces cannot disagree.
import { badRequest } from '../domain/errors.ts';
import { MAX_STRING_PARAM_CHARS, checkDepth, checkLength } from './param-bounds.ts';

export type ParamType = 'string' | 'integer' | 'number' | 'boolean' | 'array' | 'object';
export const PARAM_TYPES: readonly ParamType[] = ['string', 'integer', 'number', 'boolean', 'array', 'object'];

export interface ParamSpec {
  name: string;
  type: ParamType;
  required?: boolean | undefined;
  description?: string | undefined;
  default?: unknown;
  enum?: readonly unknown[] | undefined;
  /** For `object` parameters: the documented sub-fields, copied into the JSON Schema. */
  properties?: Readonly<Record<string, { type: ParamType; description?: string }>> | undefined;
  /** Longest accepted string (type `string` only); MAX_STRING_PARAM_CHARS when absent. */
  maxLength?: number | undefined;
}

export interface JsonSchemaObject {
  type: 'object';
  properties: Record<string, { type: ParamType; description?: string; default?: unknown; enum?: unknown[]; properties?: Record<string, unknown> }>;
  required?: string[];
}

export function toJsonSchema(params: readonly ParamSpec[]): JsonSchemaObject {
  const properties: JsonSchemaObject['properties'] = {};
  for (const p of params) {
    properties[p.name] = {
      type: p.type,
      ...(p.description ? { description: p.description } : {}),
      ...(p.default !== undefined ? { default: p.default } : {}),
      ...(p.enum ? { enum: [...p.enum] } : {}),
      ...(p.properties ? { properties: { ...p.properties } } : {}),
    };
  }
  const required = params.filter((p) => p.required).map((p) => p.name);
  return { type: 'object', properties, ...(required.length > 0 ? { required } : {}) };
}

/**
 * Checks `input` against the specs and returns a new object with defaults applied.
 * Throws bad_request naming the parameter: body not an object, missing required, wrong type
 * (`integer` accepts whole numbers only), value outside `enum`, a string past its `maxLength`, or
 * input nested deeper than MAX_PARAM_DEPTH (param-bounds.ts). Unknown keys pass through.
 */
export function validateParams(params: readonly ParamSpec[], input: unknown): Record<string, unknown> {
  if (input === null || typeof input !== 'object' || Array.isArray(input)) {
    throw badRequest('parameters must be a JSON object');
  }
  checkDepth(input);
  const out: Record<string, unknown> = { ...(input as Record<string, unknown>) };
  for (const p of params) {
    const value = out[p.name];
    if (value === undefined || value === null) {
      if (p.required) throw badRequest(`missing required parameter '${p.name}'`, { parameter: p.name });
      if (p.default !== undefined) out[p.name] = p.default;
      else delete out[p.name];
      continue;
    }
    if (!hasType(value, p.type)) {
      throw badRequest(`parameter '${p.name}' must be ${article(p.type)} ${p.type}, got ${describe(value)}`, { parameter: p.name });
    }
    if (typeof value === 'string') checkLength(p.name, value, p.maxLength ?? MAX_STRING_PARAM_CHARS);
    if (p.enum && !p.enum.some((allowed) => allowed === value)) {
      throw badRequest(`parameter '${p.name}' must be one of ${p.enum.map((v) => JSON.stringify(v)).join(', ')}, got ${JSON.stringify(value)}`, {
        parameter: p.name,
      });
    }
  }
  return out;
}

function hasType(value: unknown, type: ParamType): boolean {
  switch (type) {
    case 'string':
      return typeof value === 'string';
    case 'integer':
      return typeof value === 'number' && Number.isInteger(value);
    case 'number':
      return typeof value === 'number' && Number.isFinite(value);
    case 'boolean':
      return typeof value === 'boolean';
    case 'array':
      return Array.isArray(value);
    case 'object':
      return typeof value === 'object' && value !== null && !Array.isArray(value);
  }
}

function describe(value: unknown): string {
  if (Array.isArray(value)) return 'an array';
  if (typeof value === 'number' && !Number.isInteger(value)) return `the number ${value}`;
  return typeof value === 'object' ? 'an object' : `${typeof value} ${JSON.stringify(value)}`;
}

const article = (type: string): string => (/^[aeiou]/.test(type) ? 'an' : 'a');
