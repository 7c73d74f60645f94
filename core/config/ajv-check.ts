// JSON Schemas checked with ajv (imported and compiled on first use, never at start-up otherwise: ADR 0130), in the
// wording of config errors (the key path, then what is wrong): `[plugin.<name>]` options (defaults applied, every
// error reported) and a plugin's config section outside json-check.ts's subset (the first error).
import { createRequire } from 'node:module';
import type { Ajv, ErrorObject, ValidateFunction } from 'ajv';
import type * as AjvModule from 'ajv';
import { configError } from '../domain/errors.ts';
import type { Plugin } from '../plugin.ts';
import { SchemaIssue } from './json-check.ts';

const require = createRequire(import.meta.url);
let ajv: Ajv | undefined;

/** `what` names the schema's owner in the error for a schema ajv cannot compile. */
function compile(schema: Record<string, unknown>, what: string): ValidateFunction {
  ajv ??= new (require('ajv') as typeof AjvModule).Ajv({ allErrors: true, useDefaults: true, strict: false });
  try {
    return ajv.compile(schema);
  } catch (error) {
    throw configError(`${what} is not a valid JSON Schema: ${(error as Error).message}`);
  }
}

/** No options written and nothing in the schema that could fail or fill `{}`: ajv (~50 ms to import) is not needed. */
const trivially = (schema: Record<string, unknown>, raw: Record<string, unknown> | undefined): boolean =>
  (raw === undefined || Object.keys(raw).length === 0) &&
  !/"(required|default|minProperties|not|anyOf|oneOf|allOf|if)"/.test(JSON.stringify(schema));

export function checkPluginOptions(plugin: Plugin, raw: Record<string, unknown> | undefined): Record<string, unknown> {
  const options = structuredClone(raw ?? {});
  if (!plugin.optionsSchema || trivially(plugin.optionsSchema, raw)) return options;
  const validate = compile(plugin.optionsSchema, `plugin '${plugin.name}': its optionsSchema`);
  if (!validate(options)) {
    const lines = (validate.errors ?? []).map((e) => issueOf(['plugin', plugin.name], e));
    throw configError(
      `invalid options for plugin '${plugin.name}' ([plugin.${plugin.name}]):\n` +
        lines.map((i) => `  - ${i.path.join('.')} ${i.message}`).join('\n'),
    );
  }
  return options;
}

/** A config section's check; `owner` names the plugin in the error for a schema ajv cannot compile. */
export function ajvCheck(
  json: Record<string, unknown>,
  owner: string,
): (v: unknown, path: readonly string[]) => unknown {
  let validate: ValidateFunction | undefined;
  return (v, path) => {
    validate ??= compile(json, `plugin '${owner}': its schema of ${path.slice(0, 2).join('.')}`);
    const value = structuredClone(v);
    if (validate(value)) return value;
    throw issueOf(path, validate.errors?.[0]);
  };
}

function issueOf(path: readonly string[], error: ErrorObject | undefined): SchemaIssue {
  const at = [...path, ...(error?.instancePath.split('/').filter(Boolean) ?? [])];
  const { additionalProperty, missingProperty } = (error?.params ?? {}) as Record<string, string | undefined>;
  if (error?.keyword === 'additionalProperties')
    return new SchemaIssue([...at, String(additionalProperty)], 'is not a known key');
  if (error?.keyword === 'required') return new SchemaIssue([...at, String(missingProperty)], 'is required');
  return new SchemaIssue(at, error?.message ?? 'is invalid');
}
