// What plugins add through the `tools`, `agents` and `resources` hooks, and the `toolCall` hook's call:
// the shapes a plugin writes; the registries adapt them (the tool-registry plugin's, agents-inline's).
import type { PluginContext } from '../plugin-context.ts';
import type { ParamSpec, ToolClient } from './tool-types.ts';

/**
 * One MCP content block: `{type: 'text', text}`, `{type: 'image' | 'audio', data (base64), mimeType}`,
 * `{type: 'resource', resource: {uri, mimeType?, text | blob}}` or `{type: 'resource_link', uri, name, mimeType?}`.
 */
export interface PromptContentBlock {
  type: 'text' | 'image' | 'audio' | 'resource' | 'resource_link';
  [field: string]: unknown;
}

/**
 * A tool as a plugin adds it. `inputSchema` is a JSON Schema object, advertised and checked whole
 * (top-level keywords such as `additionalProperties: false` or `oneOf` included).
 */
export interface PluginToolDef {
  name: string;
  description?: string;
  inputSchema?: Record<string, unknown>;
  readOnly?: boolean;
  /** Seconds; default 30 (an extension module's: `[extensions] timeout`); none for `params` without `timeout`. */
  timeout?: number;
  /** kbctx's own parameter list (bounds such as `maxLength` included), instead of `inputSchema`. */
  params?: readonly ParamSpec[];
  /** Listed first and reserved: no other tool may take its name. */
  builtin?: boolean;
  /**
   * True: `call` returns an MCP tool result, `{ content: ContentBlock[], isError?: boolean }` (text,
   * image, audio, resource blocks), which MCP passes on as it is (REST and the CLI show the same object).
   * Default: the value is data, sent over MCP as JSON text (and `structuredContent` for an object).
   */
  content?: boolean;
  /**
   * What `kbctx tool list` shows as its origin (`script` for the Lua bridge's script tools); default the plugin's name.
   */
  source?: string;
  call(params: Record<string, unknown>, ctx: PluginToolContext): unknown;
}

/**
 * A tool's `ctx`: the plugin's context plus `client`, log messages and progress to the calling client (MCP
 * notifications; no-ops over REST and the CLI).
 */
export interface PluginToolContext extends PluginContext {
  readonly client: ToolClient;
}

/** One piece of a resource as MCP `resources/read` returns it: `text`, or `blob` (base64). */
export interface PluginResourceContents {
  text?: string;
  /** Base64-encoded bytes. */
  blob?: string;
  /** Default: the resource's `mimeType`. */
  mimeType?: string;
}

/**
 * An MCP resource a plugin adds through the `resources` hook: a fixed `uri`, or a `uriTemplate`
 * whose `{name}` parts each stand for one non-empty piece without `/` (RFC 6570 level 1). Listed by
 * `resources/list` (fixed) or `resources/templates/list`; `read` answers `resources/read` with the
 * template's values (empty for a fixed uri). A KbctxError `not_found` is the MCP resource-not-found error.
 */
export interface PluginResourceDef {
  uri?: string;
  uriTemplate?: string;
  name: string;
  title?: string;
  description?: string;
  mimeType?: string;
  read(
    uri: string,
    values: Record<string, string>,
    ctx: PluginContext,
  ): PluginResourceContents | Promise<PluginResourceContents>;
}

/** An agent (an MCP prompt) as a plugin adds it. */
export interface PluginAgentDef {
  name: string;
  description?: string;
  tools?: string[];
  arguments?: { name: string; description?: string; required?: boolean }[];
  timeout?: number;
  /** What `kbctx agent list` shows as its origin (`lua` for the Lua bridge's script agents); default `extension`. */
  source?: string;
  resolve(args: Record<string, unknown>, ctx: PluginContext): PluginPrompt | Promise<PluginPrompt>;
}

export interface PluginPrompt {
  system: string;
  tools?: string[];
  /**
   * `content`: text, or an MCP content block (`{type: 'image', data, mimeType}`,
   * `{type: 'resource', resource: {uri, text | blob}}` …) sent as it is over MCP.
   */
  messages?: { role: 'user' | 'assistant'; content: string | PromptContentBlock }[];
}

export interface ToolCall {
  name: string;
  params: Record<string, unknown>;
}
