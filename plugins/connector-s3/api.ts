// connector-s3's contract entry: the type of its `[connectors.s3.<name>]` tables and their accessor (ADR 0192), for
// plugins that read them (the cli's `connector list`, doctor) and library users.
export { s3ConnectorsOf, type S3ConnectorConfig } from './config-section.ts';
