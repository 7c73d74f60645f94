// First-party plugin: the command line. The process entry (registry/cli.ts) runs its runner
// (run-cli.ts: the commander program, the error → exit code table, help and completions), a plain host
// of the `commands` hook; this index taps it for the host's commands (init, sync, embed, start, serve,
// completions, connector, tool, agent, doctor, plugins, config), one named tap per command module, so
// the CLI imports a command's module only when it runs (ADR 0162, 0170, 0190). The host's commands tap
// first (STAGE.FIRST): other plugins attach subcommands to `tool`, `agent` and `connector`.
import type { Command } from 'commander';
import { definePlugin, STAGE, type CliProgram } from '../../core/api/plugin.ts';
import { cliService, type CliContext } from './api.ts';

type Register = (program: Command, ctx: CliContext) => void;

/** Each command → its module's register function, in help order. */
const COMMANDS: Readonly<Record<string, () => Promise<Register>>> = {
  init: async () => (await import('./commands/init.ts')).registerInit,
  sync: async () => (await import('./commands/sync.ts')).registerSync,
  embed: async () => (await import('./commands/embed.ts')).registerEmbed,
  start: async () => (await import('./commands/start.ts')).registerStart,
  serve: async () => (await import('./commands/serve.ts')).registerServe,
  completions: async () => (await import('./commands/completions.ts')).registerCompletions,
  connector: async () => (await import('./commands/connector.ts')).registerConnector,
  tool: async () => (await import('./commands/tool.ts')).registerTool,
  agent: async () => (await import('./commands/agent.ts')).registerAgent,
  doctor: async () => (await import('./commands/doctor.ts')).registerDoctor,
  plugins: async () => (await import('./commands/plugins.ts')).registerPlugins,
};

const plugin = definePlugin({
  name: 'cli',
  version: '0.2.0',
  kbctx: '^0.2',
  provides: [...Object.keys(COMMANDS), 'config'].map((name) => `command:${name}`),
  optionsSchema: { type: 'object', additionalProperties: false, properties: {} },
  apply(kernel) {
    for (const [name, load] of Object.entries(COMMANDS))
      kernel.hooks.commands.tapPromise({ name: 'cli', commands: [name], stage: STAGE.FIRST }, async (program) =>
        (await load())(program as unknown as Command, kernel.use(cliService)),
      );
    // After the other plugins' commands, as help listed it before.
    kernel.hooks.commands.tapPromise({ name: 'cli', commands: ['config'] }, async (program: CliProgram) =>
      (await import('./commands/config.ts')).registerConfig(program, kernel.use(cliService)),
    );
  },
});

export default plugin; // a named constant: see test/architecture.test.ts
