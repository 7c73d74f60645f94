// What one caller may see and do: a token's scopes (`[server.tokens.<name>]`, ADR 0223). Absent fields: no limit.
export interface AccessScope {
  /** Connector names or globs (`git:*`): documents of other sources do not exist for the caller. */
  readonly sources?: readonly string[] | undefined;
  /** Globs on document paths; a glob starting with `!` excludes. Documents outside do not exist for the caller. */
  readonly paths?: readonly string[] | undefined;
  /** Metadata equalities (`team = "infra"`): documents without every pair do not exist for the caller. */
  readonly meta?: Readonly<Record<string, string | number | boolean>> | undefined;
  /** Tool and agent names (globs) the caller may list and call. */
  readonly tools?: readonly string[] | undefined;
  /** May trigger /sync and read /metrics. */
  readonly admin?: boolean | undefined;
}

/**
 * Whether the caller may administer the server: trigger syncs, read their status (REST `GET /sync/status`, MCP
 * `kbctx://sync/status`) and `/metrics`. Yes for a token with the `admin` scope and for a request no token scopes (a
 * server without tokens); one rule for every surface (ADR 0223).
 */
export function mayAdminister(scope: AccessScope | undefined): boolean {
  return scope === undefined || scope.admin === true;
}
