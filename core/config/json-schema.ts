// The config file's JSON Schema (config/kbctx.schema.json is this, written by `npm run config:schema`):
// the kernel's sections and the ones the plugins own, each from its plugin's schema (ADR 0164).
import { bundledSections, joinSections, type OwnedSections } from './plugin-sections.ts';
import { configSchemaWith } from './schema.ts';
import { configuredSections } from './configured-sections.ts';

/** `owned`: the sections of the bundled set by default (import registry/bundled.ts first). */
export function configJsonSchema(owned: OwnedSections = bundledSections()): Record<string, unknown> {
  return {
    $schema: 'https://json-schema.org/draft/2020-12/schema',
    $id: 'https://github.com/kbctx/kbctx/blob/main/config/kbctx.schema.json',
    title: 'kbctx configuration (config/kbctx.toml)',
    description:
      "Every key kbctx reads, with its type, range and default (core/config/schema.ts and each plugin's config " +
      'sections). Context Harness ctx.toml files validate too.',
    ...configSchemaWith(owned).json,
  };
}

/**
 * The schema of the config as `kernel` loaded it (`kbctx config schema`): the bundled set's sections and its configured
 * plugins' connector types, store keys and embedding providers (ADR 0241).
 */
export function loadedConfigJsonSchema(kernel: object): Record<string, unknown> {
  return configJsonSchema(joinSections(bundledSections(), configuredSections(kernel)));
}
