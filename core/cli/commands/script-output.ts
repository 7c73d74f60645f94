// Output shared by the script commands (tool, agent, connector): scaffold notices and warnings for
// scripts that failed to load.
import type { Scaffold } from '../../../plugins/lua-bridge/scripting/scaffold.ts';
import type { ScriptLoadFailure } from '../../../plugins/lua-bridge/scripting/scripting.ts';
import type { CliContext } from '../context.ts';

export function printScaffold(ctx: CliContext, scaffold: Scaffold, testCommand: string): void {
  if (ctx.json) return ctx.printJson({ path: scaffold.relative, config_entry: scaffold.configEntry, test: testCommand });
  ctx.io.out(`Created ${scaffold.relative}\n\nAdd to your config (config/kbctx.toml):\n\n${scaffold.configEntry}\nThen try it: ${testCommand}\n`);
}

export function reportLoadFailures(ctx: CliContext, failures: readonly ScriptLoadFailure[]): void {
  for (const f of failures) ctx.io.err(`warning: ${f.label} not loaded: ${f.message}\n`);
}
