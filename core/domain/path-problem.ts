// Words for the file-system errors a path the user chose can cause (a missing folder, a folder where a
// file goes, a file where a folder goes, no permission), so adapters report them as the user's mistake
// rather than as internal errors. Pure: reads the error's code and path, never the disk.
import path from 'node:path';

/** What is wrong with `file` (the path the user gave), or null when the error is not about the path. */
export function pathProblem(error: unknown, file: string): string | null {
  const e = error as NodeJS.ErrnoException | null;
  const at = e?.path ?? file;
  switch (e?.code) {
    case 'ENOENT':
      return `the folder ${path.dirname(file)} does not exist`;
    case 'EISDIR':
      return `${at} is a folder`;
    case 'EEXIST':
      return `${at} is a file, not a folder`;
    case 'ENOTDIR':
      return `a part of ${at} is a file, not a folder`;
    case 'EACCES':
    case 'EPERM':
      return `permission denied for ${at}`;
    case 'EROFS':
      return `${at} is on a read-only file system`;
    default:
      return null;
  }
}
