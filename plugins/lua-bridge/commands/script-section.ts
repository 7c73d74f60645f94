// The config a `tool test` / `connector test` run uses: the section named by --source, else the
// configured section whose path is this file, else defaults. A missing file is not_found (exit 4); a
// device, FIFO, folder or oversized file is bad_request (exit 2), never read.
import { existsSync } from 'node:fs';
import path from 'node:path';
import { checkScriptFile } from '../scripting/script-file.ts';
import { badRequest, notFound, type HostInfo } from '../../../core/api/plugin.ts';
import { scriptConnectorsOf, scriptToolsOf, type ScriptConfig } from '../api.ts';

type Kind = 'tools' | 'connectors';
const DEFAULT_TIMEOUT: Record<Kind, number> = { tools: 30, connectors: 300 };
const KIND_COMMAND: Record<Kind, string> = { tools: 'tool', connectors: 'connector' };
const LIST_HINT: Record<Kind, string> = {
  tools: 'the configured tools: `kbctx tool list`',
  connectors: 'the configured connectors: `kbctx sources`',
};

export function scriptSection(
  host: HostInfo,
  kind: Kind,
  file: string,
  source: string | undefined,
  cwd: string,
): { name: string; script: ScriptConfig } {
  const absolute = path.resolve(cwd, file);
  if (!existsSync(absolute))
    throw notFound(
      `script not found: ${file}; \`kbctx ${KIND_COMMAND[kind]} ` +
        `test\` takes the path of a .lua file (${LIST_HINT[kind]})`,
    );
  const problem = checkScriptFile(absolute);
  if (problem !== null) throw badRequest(problem);
  const { config } = host;
  const sections = kind === 'tools' ? scriptToolsOf(config) : scriptConnectorsOf(config);
  if (source !== undefined && !sections[source])
    throw notFound(`[${kind}.script.${source}] is not configured (${LIST_HINT[kind]})`);
  const name = source ?? Object.keys(sections).find((n) => sections[n]?.path === absolute);
  const section = name === undefined ? undefined : sections[name];
  if (name !== undefined) host.check(`${kind}.script.${name}`)?.();
  return {
    name: name ?? path.basename(file, '.lua'),
    script: { timeoutSecs: section?.timeoutSecs ?? DEFAULT_TIMEOUT[kind], extra: section?.extra ?? {}, path: absolute },
  };
}
