// connector-filesystem's contract entry: the type of its `[connectors.filesystem.<name>]` tables and their accessor
// (ADR 0192), for plugins that read them (the cli's `connector list`) and library users.
export { filesystemConnectorsOf, type FilesystemConnectorConfig } from './config-section.ts';
// Roots that lead out of the project folder, which `kbctx sync` and `doctor` (the cli's) warn about.
export {
  OUTSIDE_ROOT_FIX,
  outsideRootMessage,
  rootsOutsideProject,
  type OutsideRoot,
} from './roots-outside-project.ts';
