// Whether a command may open a local index (files at [db] path: SQLite, LanceDB) for what it needs
// (StoreOptions.access): only `create` makes a missing index; a writer needs write access to the
// folder its files live in. Checks only (access(2) also sees a read-only mount when run as root).
import { accessSync, constants, existsSync, statSync } from 'node:fs';
import path from 'node:path';
import { configError, KbctxError, type IndexAccess } from '../../core/api/plugin.ts';

export interface IndexAccessCheck {
  /** Whether the index exists at the path (else `create` makes it). */
  exists: boolean;
  /** Why the index cannot be written (only ever set for `read`: a writer is refused instead); null when it can. */
  readOnly: string | null;
}

/**
 * `target`: the index (a file or a folder); `folders`: where the store writes beside it (the WAL,
 * lock files), checked when they exist; `files`: what is written there, for the message.
 * Throws KbctxError `unavailable`: no index and not `create` ("run `kbctx sync all`"), or a writer on
 * an index it cannot write (naming the folder and what needs write access).
 */
export function checkIndexAccess(
  target: string,
  folders: readonly string[],
  access: IndexAccess = 'create',
  files = 'its files',
): IndexAccessCheck {
  const exists = existsSync(target);
  if (!exists) underAFile(target);
  if (!exists && access !== 'create') {
    throw new KbctxError(
      'unavailable',
      `no index at ${target}; run \`kbctx sync all\` to create it (or check [db] path and -c)`,
      { details: { index: 'missing' } },
    );
  }
  const readOnly = [...folders, ...(exists ? [target] : [])].map(notWritable).find((why) => why !== null) ?? null;
  if (readOnly === null || access === 'read') return { exists, readOnly };
  const where = path.resolve(folders[0] ?? path.dirname(target));
  throw new KbctxError(
    'unavailable',
    `cannot write the index at ${target}: ${readOnly}; writing the index (sync, embed, init, serve) needs write ` +
      `access to ${where}, where ${files} are written (read commands such as search and stats work read-only)`,
    { details: { index: 'read_only' } },
  );
}

/** A path that can never be created (a part of it is a file) is the configuration's fault, whatever the command. */
function underAFile(target: string): void {
  for (let dir = path.dirname(target); dir !== path.dirname(dir); dir = path.dirname(dir)) {
    if (!existsSync(dir)) continue;
    if (!statSync(dir).isDirectory())
      throw configError(`cannot use the index at ${target}: ${dir} is a file, not a folder`);
    return;
  }
}

/** Why `file` cannot be written (it exists), or null (also when it does not exist: the parent decides). */
function notWritable(file: string): string | null {
  try {
    accessSync(file, constants.W_OK);
    return null;
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') return null;
    if (code === 'EROFS') return `${file} is on a read-only file system`;
    return `${file} is read-only for this user`;
  }
}
