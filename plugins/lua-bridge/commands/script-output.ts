// Output of the script commands: plain text, or JSON with the global `--json`.
import type { Command } from 'commander';
import type { Scaffold } from '../scripting/scaffold.ts';

export interface Output {
  json: boolean;
  out(text: string): void;
  printJson(value: unknown): void;
}

export function outputOf(program: Command): Output {
  return {
    get json() {
      return program.opts<{ json?: boolean }>().json === true;
    },
    out: (text) => void process.stdout.write(text),
    printJson: (value) => void process.stdout.write(`${JSON.stringify(value, null, 2)}\n`),
  };
}

export function printScaffold(output: Output, scaffold: Scaffold, testCommand: string): void {
  if (output.json) return output.printJson({ path: scaffold.relative, config_entry: scaffold.configEntry, test: testCommand });
  output.out(`Created ${scaffold.relative}\n\nAdd to your config (config/kbctx.toml):\n\n${scaffold.configEntry}\nThen try it: ${testCommand}\n`);
}
