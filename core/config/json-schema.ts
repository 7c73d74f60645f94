// The config file's JSON Schema (config/kbctx.schema.json is this, written by `npm run config:schema`).
import { configSchema } from './schema.ts';

export function configJsonSchema(): Record<string, unknown> {
  return {
    $schema: 'https://json-schema.org/draft/2020-12/schema',
    $id: 'https://github.com/kbctx/kbctx/blob/main/config/kbctx.schema.json',
    title: 'kbctx configuration (config/kbctx.toml)',
    description: 'Every key kbctx reads, with its type, range and default (core/config/schema.ts). Context Harness ctx.toml files validate too.',
    ...configSchema.json(),
  };
}
