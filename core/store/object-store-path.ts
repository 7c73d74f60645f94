// Whether `[db] path` names object storage rather than a local file or folder (ADR 0231): the schemes
// Lance reads (s3://, gs://, az://). Such a path is never resolved against the working directory.
const OBJECT_STORE = /^(s3|gs|az):\/\/[^/]/i;

export function isObjectStorePath(p: string): boolean {
  return OBJECT_STORE.test(p.trim());
}

/** The folder for a configuration's local files (caches, lock files): beside the index, or `<base>/.kbctx`. */
export function localDataDir(dbPath: string, baseDir: string): string {
  const path = process.getBuiltinModule('node:path');
  return isObjectStorePath(dbPath) ? path.join(baseDir, '.kbctx') : path.dirname(dbPath);
}
