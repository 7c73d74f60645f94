// Browsable links for files in a git remote: GitHub, GitLab and Bitbucket web URLs from their https
// and ssh remote forms; null for any other remote (the caller falls back to file://).
// Pure string work: no network, no git.

export type GitHost = 'github' | 'gitlab' | 'bitbucket';

interface Remote {
  host: string;
  /** owner/repo (GitLab: group/subgroup/repo), without `.git`. */
  repoPath: string;
}

/** True for a local path (absolute, relative or `~`), false for a URL or scp-like `host:path` remote. */
export function isLocalGitPath(url: string): boolean {
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(url)) return false;
  const colon = url.indexOf(':');
  const slash = url.indexOf('/');
  return colon < 0 || (slash >= 0 && slash < colon);
}

/** Parses `https://host/owner/repo(.git)`, `ssh://git@host[:port]/owner/repo.git` and `git@host:owner/repo.git`. */
export function parseRemote(url: string): Remote | null {
  let host: string;
  let rest: string;
  const scheme = /^(?:https?|ssh|git):\/\/(?:[^@/]+@)?([^/:]+)(?::\d+)?\/(.+)$/i.exec(url);
  const scp = scheme ? null : /^(?:[^@/]+@)?([^/:]+):(?!\/)(.+)$/.exec(url);
  if (scheme) [host, rest] = [scheme[1] ?? '', scheme[2] ?? ''];
  else if (scp) [host, rest] = [scp[1] ?? '', scp[2] ?? ''];
  else return null;
  const repoPath = rest.replace(/\/+$/, '').replace(/\.git$/, '');
  if (!repoPath.includes('/')) return null;
  return { host: host.toLowerCase(), repoPath };
}

export function hostKind(host: string): GitHost | null {
  if (host === 'github.com' || host.startsWith('github.')) return 'github';
  if (host === 'gitlab.com' || host.startsWith('gitlab.')) return 'gitlab';
  if (host === 'bitbucket.org') return 'bitbucket';
  return null;
}

/**
 * Returns a function from a repository-relative file path to its web URL on `branch`, or null when the
 * remote is not a known forge. Path segments are percent-encoded; `/` in branch names is kept.
 */
export function webUrlBuilder(url: string, branch: string): ((repoPath: string) => string) | null {
  const remote = parseRemote(url);
  const kind = remote && hostKind(remote.host);
  if (!remote || !kind) return null;
  const base = `https://${remote.host}/${remote.repoPath}`;
  const ref = encodePath(branch);
  const view = kind === 'github' ? `blob/${ref}` : kind === 'gitlab' ? `-/blob/${ref}` : `src/${ref}`;
  return (file) => `${base}/${view}/${encodePath(file)}`;
}

function encodePath(p: string): string {
  return p.split('/').map(encodeURIComponent).join('/');
}
