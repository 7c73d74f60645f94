// The SDK's low-level Server with request-param faults reported as the client's: the SDK rejects a
// spec request whose params fail its schema with a plain Error (→ -32603 Internal error; only
// tools/call gets -32602). Here those are -32602 "Invalid params for <method>: <path>: <problem>".
import {
  ProtocolError,
  ProtocolErrorCode,
  Server,
  type JSONRPCRequest,
  type Result,
  type ServerContext,
} from '@modelcontextprotocol/server';
import { describeIssues } from './describe-issues.ts';

type Wrapped = (request: JSONRPCRequest, ctx: ServerContext) => Promise<Result>;

export class ParamCheckedServer extends Server {
  /**
   * The SDK validates a request synchronously, before it calls the registered handler, so a plain
   * Error thrown synchronously out of `handler` is that validation. This relies on every handler we
   * register being async or unable to throw (create-mcp-server.ts); their rejections pass unchanged.
   */
  protected override _wrapHandler(method: string, handler: Wrapped): Wrapped {
    const checked: Wrapped = (request, ctx) => {
      try {
        return handler(request, ctx);
      } catch (error) {
        return Promise.reject(
          error instanceof ProtocolError ? error : invalidParams(`Invalid params for ${method}: `, error),
        );
      }
    };
    const wrapped = super._wrapHandler(method, checked);
    // tools/call is validated by the SDK's own wrapper: -32602 already, with the zod issues as JSON.
    return (request, ctx) => wrapped(request, ctx).catch((error: unknown) => Promise.reject(readable(error)));
  }
}

function invalidParams(prefix: string, error: unknown): ProtocolError {
  return new ProtocolError(
    ProtocolErrorCode.InvalidParams,
    prefix + describeIssues((error as Error)?.message ?? String(error)),
  );
}

/** An SDK -32602 whose message ends in a JSON issue list, with that list made readable. */
function readable(error: unknown): unknown {
  if (!(error instanceof ProtocolError) || error.code !== ProtocolErrorCode.InvalidParams) return error;
  const start = error.message.indexOf('[');
  const issues = start === -1 ? undefined : describeIssues(error.message.slice(start));
  return issues === undefined || issues === error.message.slice(start)
    ? error
    : new ProtocolError(error.code, error.message.slice(0, start) + issues, error.data);
}
