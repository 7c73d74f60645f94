// `kbctx extension init <name>`: scaffold a compiled extension module and its test (docs/extensions.md).
import type { Command } from 'commander';
import { DEFAULT_CONFIG_PATH, type CliProgram } from '../../core/index.ts';
import type { CliContext } from '../cli/api.ts';
import { extensionsConfigOf } from './api.ts';

export function registerExtension(cli: CliProgram, ctx: CliContext): void {
  const program = cli as unknown as Command; // commander's Command at run time (core's CliProgram is its shape)
  const extension = program.command('extension').description('compiled (JavaScript) extensions: scaffold');
  extension
    .command('init')
    .description('write a typed extension module (tool, agent, connector type) and its test to extensions/<name>.mjs')
    .argument('<name>', 'extension name (lower case)')
    .action(async (name: string) => {
      const { scaffoldExtension } = await import('./scaffold.ts');
      const config = ctx.config();
      // Module paths are relative to the config root (the project; the working directory without a config file).
      const scaffold = scaffoldExtension(name, ctx.io.cwd, extensionsConfigOf(config).baseDir);
      if (ctx.json)
        return ctx.printJson({ files: scaffold.files, config_entry: scaffold.configEntry, test: scaffold.testCommand });
      ctx.io.out(
        `Created ${scaffold.files.join(' and ')}\n\nAdd to your config ` +
          `(${config.file ?? DEFAULT_CONFIG_PATH}):\n\n${scaffold.configEntry}\nThen test it: ` +
          `${scaffold.testCommand}\n`,
      );
    });
}
