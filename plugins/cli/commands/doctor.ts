// `kbctx doctor`: checks the config, the plugins (and their own `doctor` checks: registries come from
// registry-commands), the index, embeddings (and the provider), connectors' sources, extensions and scripts, registries
// and git, and prints what to do. Exit 0 when nothing failed (warnings included), 1 when a check failed, 3 when the
// config does not load.
import type { Command } from 'commander';
import { configChecks, indexChecks, type DoctorCheck } from '../doctor/doctor.ts';
import { connectorChecks, embedderCheck, gitCheck, lastRunChecks, loadChecks } from '../doctor/doctor-parts.ts';
import { listSources } from '../../tools-builtin/api.ts';
import { pluginChecks } from '../doctor/plugin-checks.ts';
import { configuredConnectors } from '../../../core/api/engine.ts';
import { KbctxError } from '../../../core/api/plugin.ts';
import type { Embedder } from '../../../core/api/plugin.ts';
import type { CliContext } from '../context.ts';
import { gitConnectorsOf } from '../../connector-git/api.ts';

const MARK = { ok: 'ok  ', warn: 'WARN', fail: 'FAIL' } as const;

export function registerDoctor(program: Command, ctx: CliContext): void {
  program
    .command('doctor')
    .description(
      'check the config, the index, embeddings, connectors, scripts, extensions, registries and git; print what to do',
    )
    .action(async () => {
      let kbctx;
      try {
        kbctx = ctx.kbctx();
      } catch (error) {
        // A config that does not load (unknown key, wrong type, bad TOML): say so, then exit 3 with its message.
        if (error instanceof KbctxError && error.code === 'config_error')
          ctx.io.out(
            `${MARK.fail}  config     ${error.message}\n` +
              `      → fix the key it names (config/kbctx.example.toml documents every key)\n`,
          );
        throw error;
      }
      const config = kbctx.config;
      let embedder: Embedder | null | 'unbuilt';
      const plugins = await pluginChecks(kbctx.kernel, () => kbctx.ready());
      if (plugins.loadError) {
        // A plugin that does not load fails every command the same way: say so, then exit 3 with its message.
        for (const c of plugins.checks)
          ctx.io.out(`${MARK.fail}  ${c.area.padEnd(10)} ${c.detail}\n      → ${c.fix}\n`);
        throw plugins.loadError;
      }
      const checks: DoctorCheck[] = [...configChecks(config), ...plugins.checks];
      try {
        embedder = kbctx.index.embedder();
      } catch (error) {
        embedder = 'unbuilt';
        checks.push({
          area: 'embeddings',
          status: 'fail',
          detail: (error as Error).message,
          fix: 'fix the [embedding] section',
        });
      }
      checks.push(...(await indexChecks(kbctx.store, embedder, () => kbctx.index.engine)));
      // The local provider is bundled (nothing to reach); a remote one must answer a real request.
      if (embedder && embedder !== 'unbuilt' && config.embedding.provider !== 'local')
        checks.push(await embedderCheck(embedder));
      const failures = await kbctx.ready();
      const extensionFailures = failures.filter((f) => f.label.startsWith('extension:'));
      const scriptFailures = failures.filter((f) => !extensionFailures.includes(f));
      checks.push(...loadChecks(extensionFailures, scriptFailures));
      checks.push(
        ...(await connectorChecks(
          await Promise.all(configuredConnectors(config).map((ref) => kbctx.index.createConnector(ref))),
        )),
      );
      // No index (or one that does not open): the index checks above said so and what to do.
      const sources = await listSources(kbctx.store, kbctx.index.connectorLabels()).catch(() => null);
      if (sources) checks.push(...lastRunChecks(sources));
      checks.push(
        await gitCheck(
          Object.keys(gitConnectorsOf(config)).length > 0 ||
            Object.values(config.registries).some((r) => r.url !== null),
        ),
      );
      if (ctx.json) ctx.printJson({ checks });
      else
        for (const c of checks)
          ctx.io.out(
            `${MARK[c.status]}  ${c.area.padEnd(10)} ${c.detail}` +
              `${c.fix && c.status !== 'ok' ? `\n      → ${c.fix}` : ''}\n`,
          );
      const failed = checks.filter((c) => c.status === 'fail').length;
      if (failed > 0) throw new KbctxError('internal', `${failed} check(s) failed`);
    });
}
