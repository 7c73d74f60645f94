// `[plugin.<name>]` checked against the plugin's JSON Schema with ajv (defaults applied, every error
// reported), in the wording of config errors: the key path, then what is wrong.
import { createRequire } from 'node:module';
import type { Ajv, ErrorObject } from 'ajv';
import type * as AjvModule from 'ajv';
import { configError } from '../domain/errors.ts';
import type { Plugin } from '../plugin.ts';

const require = createRequire(import.meta.url);
let ajv: Ajv | undefined;

/** No options written and nothing in the schema that could fail or fill `{}`: ajv (~50 ms to import) is not needed. */
const trivially = (schema: Record<string, unknown>, raw: Record<string, unknown> | undefined): boolean =>
  (raw === undefined || Object.keys(raw).length === 0) &&
  !/"(required|default|minProperties|not|anyOf|oneOf|allOf|if)"/.test(JSON.stringify(schema));

export function checkPluginOptions(plugin: Plugin, raw: Record<string, unknown> | undefined): Record<string, unknown> {
  const options = structuredClone(raw ?? {});
  if (!plugin.optionsSchema || trivially(plugin.optionsSchema, raw)) return options;
  ajv ??= new (require('ajv') as typeof AjvModule).Ajv({ allErrors: true, useDefaults: true, strict: false });
  let validate;
  try {
    validate = ajv.compile(plugin.optionsSchema);
  } catch (error) {
    throw configError(
      `plugin '${plugin.name}': its optionsSchema is not a valid JSON Schema: ${(error as Error).message}`,
    );
  }
  if (!validate(options)) {
    const lines = (validate.errors ?? []).map((e) => `  - ${describe(plugin.name, e)}`);
    throw configError(`invalid options for plugin '${plugin.name}' ([plugin.${plugin.name}]):\n${lines.join('\n')}`);
  }
  return options;
}

function describe(name: string, error: ErrorObject): string {
  const at = ['plugin', name, ...error.instancePath.split('/').filter(Boolean)].join('.');
  if (error.keyword === 'additionalProperties')
    return `${at}.${String((error.params as { additionalProperty: string }).additionalProperty)} is not a known key`;
  if (error.keyword === 'required')
    return `${at}.${String((error.params as { missingProperty: string }).missingProperty)} is required`;
  return `${at} ${error.message ?? 'is invalid'}`;
}
