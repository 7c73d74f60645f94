// Tool parameters, declared once as a list of ParamSpec (the shape Lua tools declare too) and turned
// into a JSON Schema, which ajv compiles once per tool (lazily, on the first call) into its validator.
// REST, MCP and the CLI validate through validateParams, so the three surfaces cannot disagree. A tool
// declared with a whole JSON Schema (a plugin's `inputSchema`) is checked against it as declared too:
// top-level `additionalProperties`, `required`, `oneOf`/`anyOf`… (issue 29).
// A list with no `schema` keywords (type, enum and maxLength only, as the built-in tools') is checked
// here exactly as ajv would, in ajv's order: `kbctx search` does not load ajv (ADR 0130).
import { createRequire } from 'node:module';
import type { Ajv as AjvInstance, ErrorObject, ValidateFunction } from 'ajv';
import { KbctxError, badRequest, type ParamSpec, type ParamType } from '../../core/api/plugin.ts';
import { MAX_STRING_PARAM_CHARS, checkLength, checkShape } from './param-bounds.ts';
import type { JsonSchemaObject } from './registry-types.ts';

export function toJsonSchema(params: readonly ParamSpec[]): JsonSchemaObject {
  const properties: JsonSchemaObject['properties'] = {};
  for (const p of params) {
    properties[p.name] = {
      type: p.type,
      ...(p.description ? { description: p.description } : {}),
      ...(p.default !== undefined ? { default: p.default } : {}),
      ...(p.enum ? { enum: [...p.enum] } : {}),
      ...(p.properties ? { properties: { ...p.properties } } : {}),
      ...(p.maxLength !== undefined ? { maxLength: p.maxLength } : {}),
      ...p.schema,
    };
  }
  const required = params.filter((p) => p.required).map((p) => p.name);
  return { type: 'object', properties, ...(required.length > 0 ? { required } : {}) };
}

/**
 * Checks `input` against the specs and returns a new object with defaults applied.
 * Throws bad_request naming the parameter: body not an object, missing required, wrong type
 * (`integer` accepts whole numbers only), value outside `enum`, a string past its `maxLength`
 * (MAX_STRING_PARAM_CHARS by default), any other JSON Schema keyword of `schema` (with its path), or
 * input nested deeper than MAX_PARAM_DEPTH or holding a `__proto__`/`constructor`/`prototype` key
 * (param-bounds.ts). With `declared` (the tool's whole JSON Schema, as its author wrote it), `params`
 * serve only for required, defaults and the default string bound; the rest is that schema exactly,
 * checked after defaults are applied. Unknown keys pass through unless the schema forbids them; null
 * is absent.
 */
export function validateParams(
  params: readonly ParamSpec[],
  input: unknown,
  declared?: Readonly<Record<string, unknown>>,
): Record<string, unknown> {
  if (input === null || typeof input !== 'object' || Array.isArray(input)) {
    throw badRequest('parameters must be a JSON object');
  }
  checkShape(input); // iterative, before ajv walks anything
  const out: Record<string, unknown> = { ...(input as Record<string, unknown>) };
  for (const p of params) {
    if (out[p.name] !== undefined && out[p.name] !== null) continue;
    if (p.required) throw badRequest(`missing required parameter '${p.name}'`, { parameter: p.name });
    if (p.default !== undefined) out[p.name] = p.default;
    else delete out[p.name];
  }
  if (declared) {
    checkDeclaredBounds(params, out);
    const whole = declaredValidator(declared);
    if (whole(out)) return out;
    // The last error is the outermost keyword that failed (`anyOf`, not its first branch's fault); the first names the
    // cause.
    const errors = whole.errors!;
    throw describeError(errors.at(-1)!, out, errors.length > 1 ? describeError(errors[0]!, out).message : undefined);
  }
  if (isPlain(params)) {
    const error = plainError(params, out);
    if (error) throw describeError(error, out);
    return out;
  }
  const validate = validatorFor(params);
  if (!validate(out)) throw describeError(validate.errors![0]!, out);
  return out;
}

/**
 * A declared schema's string parameters without their own `maxLength` still get MAX_STRING_PARAM_CHARS, checked before
 * ajv reads them.
 */
function checkDeclaredBounds(params: readonly ParamSpec[], out: Record<string, unknown>): void {
  for (const p of params) {
    const value = out[p.name];
    if (typeof value === 'string' && p.maxLength === undefined) checkLength(p.name, value);
  }
}

type ParamError = Pick<ErrorObject, 'keyword' | 'instancePath' | 'params' | 'message'>;

const isPlain = (params: readonly ParamSpec[]): boolean =>
  params.every((p) => p.schema === undefined && (p.enum ?? []).every((v) => v === null || typeof v !== 'object'));

/**
 * The first error ajv would report for a plain list: properties in order; a string's `enum` before
 * its type (ajv checks general keywords before a type's own group, and every string has maxLength),
 * any other type first; `maxLength` in code points.
 */
function plainError(params: readonly ParamSpec[], out: Record<string, unknown>): ParamError | undefined {
  for (const p of params) {
    const value = out[p.name];
    if (value === undefined) continue;
    const at = `/${p.name.replaceAll('~', '~0').replaceAll('/', '~1')}`;
    const wrongType: ParamError = { keyword: 'type', instancePath: at, params: { type: p.type } };
    if (p.type !== 'string' && !hasType(p.type, value)) return wrongType;
    if (p.enum && !p.enum.some((v) => v === value))
      return { keyword: 'enum', instancePath: at, params: { allowedValues: p.enum } };
    if (p.type !== 'string') continue;
    if (typeof value !== 'string') return wrongType;
    const limit = p.maxLength ?? MAX_STRING_PARAM_CHARS;
    if (codePoints(value) > limit) return { keyword: 'maxLength', instancePath: at, params: { limit } };
  }
  return undefined;
}

/** ajv's type checks (strictNumbers off, as `strict: false` sets it). */
function hasType(type: Exclude<ParamType, 'string'>, value: unknown): boolean {
  switch (type) {
    case 'integer':
      return typeof value === 'number' && !(value % 1) && !Number.isNaN(value);
    case 'number':
      return typeof value === 'number';
    case 'boolean':
      return typeof value === 'boolean';
    case 'array':
      return Array.isArray(value);
    case 'object':
      return typeof value === 'object' && value !== null && !Array.isArray(value);
  }
}

/** A string's length as ajv counts it for maxLength: a surrogate pair is one. */
function codePoints(text: string): number {
  let n = 0;
  for (let i = 0; i < text.length; i++, n++) {
    const c = text.charCodeAt(i);
    if (c >= 0xd800 && c <= 0xdbff && i + 1 < text.length && (text.charCodeAt(i + 1) & 0xfc00) === 0xdc00) i++;
  }
  return n;
}

const require = createRequire(import.meta.url);
let ajv: AjvInstance | undefined;
const validators = new WeakMap<readonly ParamSpec[], ValidateFunction>();
const declaredValidators = new WeakMap<object, ValidateFunction>();

// Loaded on the first validation, so commands that validate nothing never load ajv.
const ajvInstance = (): AjvInstance =>
  (ajv ??= new (require('ajv') as { default: new (options: object) => AjvInstance }).default({
    strict: false,
    allErrors: false,
    validateSchema: false,
  }));

/**
 * A tool's whole declared schema, compiled on its first call; one that cannot compile is the tool's fault
 * (script_error).
 */
function declaredValidator(schema: Readonly<Record<string, unknown>>): ValidateFunction {
  let validate = declaredValidators.get(schema);
  if (validate) return validate;
  try {
    validate = ajvInstance().compile(schema);
  } catch (error) {
    throw new KbctxError(
      'script_error',
      `the tool's inputSchema is not a usable JSON Schema: ${(error as Error).message}`,
    );
  }
  declaredValidators.set(schema, validate);
  return validate;
}

/** The compiled validator of one parameter list (one per tool: compiled on its first call, then reused). */
function validatorFor(params: readonly ParamSpec[]): ValidateFunction {
  let validate = validators.get(params);
  if (validate) return validate;
  const schema = toJsonSchema(params);
  for (const p of params) {
    const property = schema.properties[p.name]!;
    delete property.default; // applied above: null counts as absent
    // `properties` documents sub-fields (the tool checks them itself); `schema.properties` is checked here.
    if (p.properties && p.schema?.['properties'] === undefined) delete property.properties;
    if (p.type === 'string' && property.maxLength === undefined) property.maxLength = MAX_STRING_PARAM_CHARS;
  }
  delete schema.required; // checked above, with null as absent
  validate = ajvInstance().compile(schema);
  validators.set(params, validate);
  return validate;
}

/**
 * The first ajv error in kbctx's words: `parameter '<path>' …`, the path in JSON Pointer form without the leading
 * slash.
 */
function describeError(error: ParamError, input: Record<string, unknown>, cause?: string): KbctxError {
  const path = error.instancePath
    .slice(1)
    .split('/')
    .map((s) => s.replaceAll('~1', '/').replaceAll('~0', '~'));
  const value = path.reduce<unknown>((v, key) => (v as Record<string, unknown> | undefined)?.[key], input);
  const name = path.join('/');
  const details = { parameter: name };
  switch (error.keyword) {
    case 'type': {
      const type = String(error.params['type']);
      return badRequest(`parameter '${name}' must be ${article(type)} ${type}, got ${describe(value)}`, details);
    }
    case 'maxLength':
      return badRequest(
        `parameter '${name}' is ${(value as string).length} characters long; the limit is ` +
          `${String(error.params['limit'])}`,
        { ...details, limit: error.params['limit'] },
      );
    case 'enum': {
      const allowed = error.params['allowedValues'] as unknown[];
      return badRequest(
        `parameter '${name}' must be one of ` +
          `${allowed.map((v) => JSON.stringify(v)).join(', ')}, got ${JSON.stringify(value)}`,
        details,
      );
    }
    case 'required':
      return badRequest(
        `missing required parameter '${[...path, String(error.params['missingProperty'])].filter(Boolean).join('/')}'`,
        details,
      );
    case 'additionalProperties': {
      const key = [...path, String(error.params['additionalProperty'])].filter(Boolean).join('/');
      return badRequest(`unknown parameter '${key}'; the tool's schema allows no other properties here`, {
        parameter: key,
      });
    }
    default:
      return badRequest(
        `${name === '' ? 'parameters' : `parameter '${name}':`} ${error.message ?? 'is not valid'}` +
          `${cause ? ` (${cause})` : ''}`,
        details,
      );
  }
}

function describe(value: unknown): string {
  if (Array.isArray(value)) return 'an array';
  if (typeof value === 'number' && !Number.isInteger(value)) return `the number ${value}`;
  return typeof value === 'object' ? 'an object' : `${typeof value} ${JSON.stringify(value)}`;
}

const article = (type: string): string => (/^[aeiou]/.test(type) ? 'an' : 'a');
