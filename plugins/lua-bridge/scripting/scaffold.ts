// `connector|tool|agent init <name>`: writes a commented, working template to
// <connectors|tools|agents>/<name>.lua under the working directory. Never overwrites a file.
import { badRequest, KbctxError } from '../../../core/api/plugin.ts';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';

export type ScaffoldKind = 'connector' | 'tool' | 'agent';

export interface Scaffold {
  /** Absolute path of the new script. */
  file: string;
  /** The path as it goes into the config (relative to the working directory). */
  relative: string;
  /** The config entry to add. */
  configEntry: string;
}

const SECTION: Record<ScaffoldKind, string> = {
  connector: 'connectors.script',
  tool: 'tools.script',
  agent: 'agents.script',
};

export function scaffoldScript(kind: ScaffoldKind, name: string, cwd: string): Scaffold {
  if (!/^[A-Za-z0-9][A-Za-z0-9_-]*$/.test(name))
    throw badRequest(`invalid ${kind} name '${name}': use letters, digits, '-' and '_'`);
  const relative = `${kind}s/${name}.lua`;
  const file = path.resolve(cwd, relative);
  if (existsSync(file)) throw new KbctxError('conflict', `${relative} already exists; pick another name or edit it`);
  const template = readFileSync(new URL(`./templates/${kind}.lua`, import.meta.url), 'utf8');
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(file, template.replaceAll('{{name}}', name));
  // 300 s for connectors (they fetch whole sources), as in Context Harness; 30 s for tools and agents.
  return {
    file,
    relative,
    configEntry: `[${SECTION[kind]}.${name}]\npath = "${relative}"\ntimeout = ${kind === 'connector' ? 300 : 30}\n`,
  };
}
