// tool-registry's contract entry: what the surfaces and the plugins that make tools share of the registry (ADR 0249) —
// a token's `tools` scope (mcp-server's catalog, agents-inline's registry), parameter validation and the JSON Schema
// of a parameter list (tools-builtin's search parameters, the Lua bridge's script tools), the spec checks of a tool
// with a deadline (the extensions plugin's `registerTool`, agents-inline's `specHead`), the parameter list form (the
// Lua bridge) and the input bounds (agents-inline's argument checks). Light: each is required on first call. And the
// registry itself: the `kbctx.tools` service and `toolsOf`, how the surfaces reach it (ADR 0254).
import {
  configError,
  createServiceRef,
  hostService,
  notFound,
  requireOwn,
  type AccessScope,
  type ParamType,
  type ServiceRef,
  type ToolClient,
} from '../../core/api/plugin.ts';
import type { ToolRegistry } from './registry-types.ts';
import type * as ParamSpec from './param-spec.ts';
import type * as ParamBounds from './param-bounds.ts';
import type * as ParamList from './param-list.ts';
import type * as ToolAccess from './tool-access.ts';
import type * as ToolFromSpec from './tool-from-spec.ts';

export type { ToolSpec } from './tool-from-spec.ts';
export type {
  JsonSchemaObject,
  Tool,
  ToolCallContext,
  ToolInfo,
  ToolRegistry,
  ToolSchema,
} from './registry-types.ts';
// The registry's listing in the contract's JSON names (REST, the CLI), formerly core's host-wire.ts.
export { toolsToWire } from './tool-wire.ts';

/**
 * The `kbctx.tools` service: every plugin's tools in one registry, which this plugin collects from the `tools` hook on
 * first use and again at `boot` (configured plugins', script tools, extension modules' tools join it then).
 */
export interface ToolsService {
  /** The registry, built on the first call; the same object after (a later tool of a name replaces an earlier one). */
  registry(): ToolRegistry;
}

export const toolsService: ServiceRef<ToolsService> = createServiceRef<ToolsService>('kbctx.tools');

/** What a surface holds of the host: its services (`kbctx.kernel`). */
export interface ServiceHost {
  readonly services: { has(ref: ServiceRef<unknown>): boolean; use<T>(ref: ServiceRef<T>): T };
}

/**
 * The host's tool registry, as REST, MCP, the CLI and the library call it. Without this plugin (`"!tool-registry"`)
 * there are none: a tool a plugin adds is a config_error saying why, here and in the registry's `register`/`add`.
 */
export function toolsOf(host: ServiceHost): ToolRegistry {
  if (host.services.has(toolsService)) return host.services.use(toolsService).registry();
  const none = noTools();
  host.services.use(hostService).collect('tools', (def) => none.add(def, NO_CONTEXT, ''));
  return none;
}

const NO_CONTEXT = (): never => {
  throw new Error('unreachable: no tool is added without the tool-registry plugin');
};

function noTools(): ToolRegistry {
  const missing = (name: string): never => {
    throw configError(
      `tool '${name}' needs the tool-registry plugin, which runs every plugin's tools (remove '!tool-registry' from ` +
        'plugins)',
    );
  };
  const unknown = (name: string): never => {
    throw notFound(`unknown tool '${name}'; no tools are configured`);
  };
  return {
    register: (tool) => missing(tool?.name),
    add: (def) => missing(def?.name),
    has: () => false,
    get: unknown,
    list: () => [],
    call: async (name) => unknown(name),
  };
}

/** A parameter's types, `string` first: it decides how the CLI reads a value. */
export const PARAM_TYPES: readonly ParamType[] = ['string', 'integer', 'number', 'boolean', 'array', 'object'];

const done = (): Promise<void> => Promise.resolve();

/** For surfaces with no channel back to the caller (REST, CLI): every call does nothing. */
export const NO_TOOL_CLIENT: ToolClient = Object.freeze({ log: done, progress: done });

/**
 * Whether `scope`'s `tools` list (ADR 0223) names a tool or agent; tool-access.ts is required only for a caller with
 * one: `kbctx search` never loads it (start-up, ADR 0130).
 */
export const toolAllowed = (scope: AccessScope | undefined, name: string): boolean =>
  scope?.tools === undefined ||
  requireOwn<typeof ToolAccess>(import.meta.url, './tool-access.ts').toolAllowed(scope, name);

const params = (): typeof ParamSpec => requireOwn<typeof ParamSpec>(import.meta.url, './param-spec.ts');
const bounds = (): typeof ParamBounds => requireOwn<typeof ParamBounds>(import.meta.url, './param-bounds.ts');
const specs = (): typeof ToolFromSpec => requireOwn<typeof ToolFromSpec>(import.meta.url, './tool-from-spec.ts');

/** Checks input against a parameter list (and a declared schema) and applies defaults; bad_request names it. */
export const validateParams: typeof ParamSpec.validateParams = (...args) => params().validateParams(...args);
/** A parameter list as the JSON Schema a tool advertises. */
export const toJsonSchema: typeof ParamSpec.toJsonSchema = (...args) => params().toJsonSchema(...args);
/** Throws bad_request for input nested too deep or holding a prototype key. */
export const checkShape: typeof ParamBounds.checkShape = (...args) => bounds().checkShape(...args);
/** Throws bad_request naming the parameter when a string is longer than its limit. */
export const checkLength: typeof ParamBounds.checkLength = (...args) => bounds().checkLength(...args);
/** The parameter list form (a script tool's `tool.parameters`) as ParamSpecs; script_error naming the entry. */
export const parseParamList: typeof ParamList.parseParamList = (...args) =>
  requireOwn<typeof ParamList>(import.meta.url, './param-list.ts').parseParamList(...args);
/** A tool spec with a deadline (an extension's `registerTool`) checked and turned into the registry's Tool. */
export const toolFromSpec: typeof ToolFromSpec.toolFromSpec = (...args) => specs().toolFromSpec(...args);
/** What a tool and an agent spec share, checked: the name, the function, the timeout (agents-inline's agents). */
export const specHead: typeof ToolFromSpec.specHead = (...args) => specs().specHead(...args);
