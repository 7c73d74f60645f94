// Git connector: keeps a private clone of `url`@`branch`, lists the files under `root` with their blob
// shas (the fingerprint, so an unchanged file is never read) and loads changed ones from the checkout.
// updated_at is each file's last commit time; source_url a forge web URL, a file:// link into the user's
// own repository for a local remote, else file:// into the clone.
import { createHash } from 'node:crypto';
import { readFileSync, statSync } from 'node:fs';
import { homedir, tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import {
  type FileExtraction,
  configError,
  KbctxError,
  type Connector,
  type LoadedItem,
  type ScanEntry,
  type ScanOptions,
  type ScanResult,
} from '../../core/api/plugin.ts';
import { createGlobFilter } from '../connector-filesystem/api.ts';
import { chunkerMetadata, loadFileItem } from '../extract-text/api.ts';
import { lastCommitTimes } from './commit-times.ts';
import { removeStaleCaches, updateCache } from './git-cache.ts';
import { createGitRunner, type GitRunner } from './run-git.ts';
import { isLocalGitPath, webUrlBuilder } from './web-url.ts';
import type { GitConnectorConfig } from './config-section.ts';

export interface GitConnectorContext {
  /** Folder for default caches (`<dataDir>/git-cache/<name>/<hash of url>`): the database's folder. */
  dataDir: string;
  /** Folder a relative local `url` resolves against (the working directory). */
  baseDir: string;
  /** The host's format extractors (none: Markdown and plain text only). */
  extraction?: FileExtraction | undefined;
}

interface TreeFile {
  /** Path from the repository root ('/'-separated): the document's source_id. */
  repoPath: string;
  blob: string;
}

export class GitConnector implements Connector {
  readonly type = 'git';
  readonly label: string;
  private readonly name: string;
  private readonly config: GitConnectorConfig;
  private readonly context: GitConnectorContext;
  private readonly url: string;
  private readonly root: string | KbctxError;
  private readonly git: GitRunner;

  constructor(name: string, config: GitConnectorConfig, context: GitConnectorContext) {
    this.name = name;
    this.label = `git:${name}`;
    this.config = config;
    this.context = context;
    const local = config.url.startsWith('~/') ? path.join(homedir(), config.url.slice(2)) : config.url;
    this.url = isLocalGitPath(local) ? path.resolve(context.baseDir, local) : config.url;
    this.root = normalizeRoot(config.root, this.label, name);
    this.git = createGitRunner(this.label, (stderr) => this.hint(stderr), config.timeoutSecs);
  }

  async scan(options: ScanOptions): Promise<ScanResult> {
    if (this.root instanceof KbctxError) throw this.root;
    const root = this.root;
    const { url } = this;
    const { branch, shallow } = this.config;
    const dir = this.cacheDir();
    const tip = await updateCache(this.git, { url, branch, shallow, dir, force: options.full, signal: options.signal });
    if (this.config.cacheDir === null) await removeStaleCaches(dir);
    const files = await this.listFiles(dir, tip, root);
    const web = webUrlBuilder(url, branch) ?? localRepoLinks(url);
    // The link depends on url and branch: a change there must refresh every document once.
    const linkToken = createHash('sha256').update(`${url}\0${branch}`).digest('hex').slice(0, 8);
    let times: Promise<Map<string, string>> | undefined;
    const timesOnce = (): Promise<Map<string, string>> =>
      (times ??= lastCommitTimes(
        dir,
        tip,
        root || '.',
        new Set(files.map((f) => f.repoPath)),
        this.label,
        this.config.timeoutSecs,
      ));
    const entries = files.map<ScanEntry>((file) => ({
      sourceId: file.repoPath,
      fingerprint: `${file.blob}:${linkToken}`,
      load: () => this.load(dir, file, timesOnce, web),
    }));
    return { entries, complete: true, deleted: [], checkpoint: tip };
  }

  private async listFiles(dir: string, tip: string, root: string): Promise<TreeFile[]> {
    const filter = createGlobFilter(this.config.includeGlobs, this.config.excludeGlobs);
    let listing: string;
    try {
      listing = await this.git(['ls-tree', '-r', '-z', root ? `${tip}:${root}` : tip], dir);
    } catch (error) {
      throw new KbctxError(
        'connector_error',
        `${this.label}: root '${root}' is not a folder on branch '${this.config.branch}'; fix ` +
          `connectors.git.${this.name}.root`,
        { cause: error },
      );
    }
    const files: TreeFile[] = [];
    for (const line of listing.split('\0')) {
      // "<mode> <type> <sha>\t<path>"; symlinks (120000) and submodules (type commit) are not files.
      const tab = line.indexOf('\t');
      if (tab < 0) continue;
      const [mode, type, blob] = line.slice(0, tab).split(' ');
      const relative = line.slice(tab + 1);
      if (type !== 'blob' || mode === '120000' || !blob || !filter.accepts(relative)) continue;
      files.push({ repoPath: root ? `${root}/${relative}` : relative, blob });
    }
    return files;
  }

  private async load(
    dir: string,
    file: TreeFile,
    times: () => Promise<Map<string, string>>,
    web: ((p: string) => string) | null,
  ): Promise<LoadedItem> {
    const absolute = path.join(dir, ...file.repoPath.split('/'));
    const size = statSync(absolute).size;
    return loadFileItem({
      sourceId: file.repoPath,
      size,
      maxFileBytes: this.config.maxFileBytes,
      read: () => readFileSync(absolute),
      sourceUrl: web ? web(file.repoPath) : pathToFileURL(absolute).href,
      updatedAt: size > this.config.maxFileBytes ? undefined : (await times()).get(file.repoPath),
      metadata: { path: file.repoPath, size, ...chunkerMetadata(this.config.chunker) },
      extraction: this.context.extraction,
    });
  }

  private cacheDir(): string {
    if (this.config.cacheDir !== null) return this.config.cacheDir;
    const urlHash = createHash('sha256').update(this.url).digest('hex').slice(0, 16);
    return path.join(this.context.dataDir, 'git-cache', this.name.replace(/[^\w.-]/g, '_'), urlHash);
  }

  /** Asks the remote for the branch's tip (`git ls-remote`), without cloning. */
  async probe(): Promise<string> {
    if (this.root instanceof KbctxError) throw this.root;
    const { url } = this;
    const { branch } = this.config;
    const tip = (await this.git(['ls-remote', '--heads', '--', url, `refs/heads/${branch}`], tmpdir()))
      .split('\t')[0]
      ?.trim();
    if (!tip)
      throw new KbctxError('connector_error', `${this.label}: ${this.hint(`Remote branch ${branch} not found`)}`);
    return `${url} (${branch} at ${tip.slice(0, 12)})`;
  }

  private hint(stderr: string): string {
    const { url } = this;
    const { branch } = this.config;
    const key = `connectors.git.${this.name}`;
    if (/Remote branch .* not found|couldn't find remote ref/i.test(stderr))
      return `branch '${branch}' does not exist in ${url}; fix ${key}.branch`;
    if (
      /Authentication failed|could not read (Username|Password)|Permission denied|terminal prompts disabled/i.test(
        stderr,
      )
    ) {
      return `check access to ${url}: Kbctx uses git's own credentials (credential helper, SSH agent)`;
    }
    if (/not a git repository|does not exist|not found|Could not resolve host|unable to access/i.test(stderr))
      return `check ${key}.url (${url})`;
    return `check ${key} and that ${url} is reachable`;
  }
}

/** `root` as a clean relative folder ('' for the repository root); a path leaving the repository is a config error. */
/**
 * For a local repository (a path or a file:// URL), links into the user's own checkout rather than kbctx's private
 * clone.
 */
function localRepoLinks(url: string): ((repoPath: string) => string) | null {
  let dir: string | null = null;
  if (/^file:\/\//i.test(url)) dir = fileURLToPath(url);
  else if (path.isAbsolute(url)) dir = url;
  if (dir === null) return null;
  const repo = dir;
  return (repoPath) => pathToFileURL(path.join(repo, ...repoPath.split('/'))).href;
}

function normalizeRoot(root: string, label: string, name: string): string | KbctxError {
  const clean = path.posix.normalize(root.replace(/\\/g, '/')).replace(/\/+$/, '');
  if (clean === '.' || clean === '') return '';
  if (clean.startsWith('/') || clean === '..' || clean.startsWith('../')) {
    return configError(
      `${label}: root '${root}' must be a folder inside the repository; fix connectors.git.${name}.root`,
    );
  }
  return clean;
}
