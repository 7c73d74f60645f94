// lua-bridge's contract entry: the types of its config sections and their accessors (ADR 0192):
// `[connectors.script.<name>]`, `[tools.script.<name>]`, `[agents.script.<name>]` and `[scripts]`.
export {
  scriptAgentsOf,
  scriptConnectorsOf,
  scriptsConfigOf,
  scriptToolsOf,
  type ScriptConfig,
  type ScriptsRuntimeConfig,
} from './script-sections.ts';
