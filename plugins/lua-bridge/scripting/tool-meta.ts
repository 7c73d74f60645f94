// A script tool's declaration (`tool.name/version/description/parameters`, read in the sandbox) checked: the
// parameters through the kernel's parameter list check, a missing description Context Harness's default.
import { asString, type ParamSpec } from '../../../core/index.ts';
import { parseParamList } from '../../tool-registry/api.ts';

export interface ToolMeta {
  name: string | undefined;
  version: string | undefined;
  description: string;
  params: ParamSpec[];
}

export function parseToolMeta(raw: unknown, registeredName: string): ToolMeta {
  const meta = (raw ?? {}) as Record<string, unknown>;
  const description = asString(meta['description']);
  return {
    name: asString(meta['name']),
    version: asString(meta['version']),
    description: description && description.trim() !== '' ? description : `Lua tool: ${registeredName}`,
    params: parseParamList(meta['parameters'], `tool:${registeredName}`),
  };
}
