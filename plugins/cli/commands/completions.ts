// `kbctx completions bash|zsh|fish`: print a shell completion script.
import type { Command } from 'commander';
import { Argument } from 'commander';
import { completionScript } from '../completions.ts';
import type { CliContext } from '../context.ts';

export function registerCompletions(program: Command, ctx: CliContext): void {
  program
    .command('completions')
    .description('print a shell completion script')
    .addArgument(new Argument('<shell>', 'bash, zsh or fish').choices(['bash', 'zsh', 'fish']))
    .action((shell: 'bash' | 'zsh' | 'fish') => {
      ctx.io.out(completionScript(program, shell));
    });
}
