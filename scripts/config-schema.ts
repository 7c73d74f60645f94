// `npm run config:schema`: writes config/kbctx.schema.json, the JSON Schema of the config file, from
// core/config/schema.ts (the kernel's keys) and the bundled plugins' config sections (ADR 0164). Editors use it for
// completion and checks (e.g. taplo: `#:schema ./kbctx.schema.json` at the top of a TOML file).
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import '../registry/bundled.ts'; // the plugins whose config sections the schema includes
import { configJsonSchema } from '../core/config/json-schema.ts';

const file = path.resolve(import.meta.dirname, '..', 'config', 'kbctx.schema.json');
writeFileSync(file, `${JSON.stringify(configJsonSchema(), null, 2)}\n`);
console.error(`wrote ${path.relative(process.cwd(), file)}`);
