// connector-filesystem's contract entry: the type of its `[connectors.filesystem.<name>]` tables and their accessor
// (ADR 0192), for plugins that read them (the cli's `connector list`) and library users; its include/exclude globs,
// which the git and S3 connectors apply alike (ADR 0240).
import { requireOwn } from '../../core/api/plugin.ts';
import type * as Globs from './globs.ts';
export { filesystemConnectorsOf, type FilesystemConnectorConfig } from './config-section.ts';
// Roots that lead out of the project folder, which `kbctx sync` and `doctor` (the cli's) warn about.
export {
  OUTSIDE_ROOT_FIX,
  outsideRootMessage,
  rootsOutsideProject,
  type OutsideRoot,
} from './roots-outside-project.ts';
/** A connector's include/exclude filter; picomatch is required on the first call (start-up, ADR 0130). */
export const createGlobFilter: typeof Globs.createGlobFilter = (...args) =>
  requireOwn<typeof Globs>(import.meta.url, './globs.ts').createGlobFilter(...args);
