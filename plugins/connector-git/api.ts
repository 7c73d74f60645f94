// connector-git's contract entry: the type of its `[connectors.git.<name>]` tables and their accessor (ADR 0192), for
// plugins that read them (the cli's `connector list`, doctor) and library users.
export { gitConnectorsOf, type GitConnectorConfig } from './config-section.ts';
