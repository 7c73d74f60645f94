// A JSON Schema outside from-json-schema.ts's subset, checked with ajv (imported and compiled on the
// first value it checks, never at start-up otherwise: ADR 0130): the first error, at its key path.
import { createRequire } from 'node:module';
import type { Ajv, ErrorObject, ValidateFunction } from 'ajv';
import type * as AjvModule from 'ajv';
import { configError } from '../domain/errors.ts';
import { SchemaIssue, type Schema } from './schema-kit.ts';

const require = createRequire(import.meta.url);
let ajv: Ajv | undefined;

/** `owner` names the plugin in the error for a schema ajv cannot compile. */
export function ajvSchema(json: Record<string, unknown>, owner: string): Schema<unknown> {
  let validate: ValidateFunction | undefined;
  return {
    parse(v, path) {
      if (!validate) {
        ajv ??= new (require('ajv') as typeof AjvModule).Ajv({ allErrors: true, useDefaults: true, strict: false });
        try {
          validate = ajv.compile(json);
        } catch (error) {
          throw configError(
            `plugin '${owner}': its schema of ${path.slice(0, 2).join('.')} is not a valid JSON Schema: ${(error as Error).message}`,
          );
        }
      }
      const value = structuredClone(v);
      if (validate(value)) return value;
      throw issueOf(path, validate.errors?.[0]);
    },
    json: () => json,
  };
}

function issueOf(path: readonly string[], error: ErrorObject | undefined): SchemaIssue {
  const at = [...path, ...(error?.instancePath.split('/').filter(Boolean) ?? [])];
  if (error?.keyword === 'additionalProperties')
    return new SchemaIssue(
      [...at, String((error.params as { additionalProperty: string }).additionalProperty)],
      'is not a known key',
    );
  if (error?.keyword === 'required')
    return new SchemaIssue(
      [...at, String((error.params as { missingProperty: string }).missingProperty)],
      'is required',
    );
  return new SchemaIssue(at, error?.message ?? 'is invalid');
}
