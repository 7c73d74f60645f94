// Which host APIs a Lua script uses (http, env, fs, context, …), read from its source text. Shown by
// `registry info` next to what the manifest declares, so a user sees what a script can reach before
// enabling it.
const HOST_APIS = ['http', 'env', 'fs', 'context', 'json', 'log', 'base64', 'crypto', 'sleep'] as const;

export function detectHostApis(source: string): string[] {
  const code = source.replace(/--\[(=*)\[[\s\S]*?\]\1\]/g, '').replace(/--[^\n]*/g, ''); // drop comments
  return HOST_APIS.filter((api) => new RegExp(`(^|[^\\w.])${api}\\s*[.:(]`).test(code));
}
