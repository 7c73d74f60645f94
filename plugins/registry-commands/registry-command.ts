// `kbctx registry list|install|update|search|info|add|override|init`: extension registries, over the
// registry library in registry/ (git registries, manifests, adding and trusting plugins).
import path from 'node:path';
import type { Command } from 'commander';
import { DEFAULT_CONFIG_PATH, KbctxError, type CliProgram } from '../../core/index.ts';
import { formatTable, type CliContext } from '../cli/api.ts';
import type { ExtensionView, RegistryContext } from '../../registry/registry-service.ts';
import type { AddPluginResult } from '../../registry/add-plugin.ts';
import type { PluginManifest } from '../../registry/plugin-manifest.ts';

/** The registry library, imported when a registry command runs (not when the CLI starts). */
const library = async () => {
  const [service, { EXTENSION_TYPES }] = await Promise.all([
    import('../../registry/registry-service.ts'),
    import('../../registry/manifest.ts'),
  ]);
  return { ...service, EXTENSION_TYPES };
};

function registryContext(ctx: CliContext): RegistryContext {
  const config = ctx.config();
  return { config, configFile: config.file ?? path.resolve(ctx.io.cwd, DEFAULT_CONFIG_PATH) };
}

function printAdded(ctx: CliContext, r: AddPluginResult): void {
  const shown = (file: string): string => path.relative(ctx.io.cwd, file) || file;
  if (r.written) ctx.io.out(`Added to ${shown(r.file)}:\n\n${r.block}\n`);
  if (r.pinned)
    ctx.io.out(
      `Pinned in ${shown(r.pinned.lockFile)}: ` +
        `${r.pinned.commit ? `commit ${r.pinned.commit.slice(0, 7)}, ` : ''}sha256 ${r.pinned.sha256.slice(0, 12)}` +
        `…\n`,
    );
  if (!r.written && !r.pinned) ctx.io.out(`Nothing to do: ${r.reason}\n`);
}

const extensionRow = (e: ExtensionView): string[] => [e.id, e.registry, e.enabled ? 'yes' : 'no', e.entry.description];

const NO_REGISTRIES =
  'No registries are configured. Run `kbctx registry init` to add the community registry, or add a ' +
  '[registries.<name>] section (url or path) to the config.\n';
const INSTALLED: Record<'cloned' | 'present' | 'no url', string> = {
  cloned: 'cloned',
  present: 'already installed',
  'no url': 'no url to clone (a local folder)',
};

function pluginLines(p: PluginManifest): string[] {
  const options = Object.keys((p.optionsSchema?.['properties'] ?? {}) as object);
  return [
    `  version:         ${p.version} (kbctx ${p.kbctx})`,
    `  entry:           ${p.entry}`,
    `  runs:            ${
      p.runtime === 'lua'
        ? 'sandboxed (Lua)'
        : 'with full rights (TypeScript/JavaScript): adding it needs --trust, and pins it in kbctx.lock'
    }`,
    `  options:         ${options.length > 0 ? options.map((o) => `plugin.${p.name}.${o}`).join(', ') : '-'}`,
  ];
}

export function registerRegistry(cli: CliProgram, ctx: CliContext): void {
  const program = cli as unknown as Command; // commander's Command at run time (core's CliProgram is its shape)
  const registry = program
    .command('registry')
    .description('extension registries: list, install, update, search, info, add, override, init');

  registry
    .command('list')
    .description('list registries and their extensions by type')
    .action(async () => {
      const { listExtensions, EXTENSION_TYPES } = await library();
      const { registries, extensions } = listExtensions(registryContext(ctx));
      if (ctx.json) return ctx.printJson({ registries, extensions });
      if (registries.length === 0)
        return ctx.io.out('No registries configured. `kbctx registry init` adds the community registry.\n');
      ctx.io.out(
        formatTable(
          ['Registry', 'Priority', 'Path', 'Kind', 'Status'],
          registries.map((r) => [
            r.name,
            r.priority,
            r.path,
            r.readonly ? 'read-only' : 'writable',
            r.present ? (r.isGit ? 'git' : 'folder') : 'not installed',
          ]),
        ),
      );
      for (const r of registries)
        if (r.manifest?.warning) ctx.io.err(`warning: registry '${r.name}': ${r.manifest.warning}\n`);
      for (const r of registries)
        for (const x of r.manifest?.refused ?? []) ctx.io.err(`warning: registry '${r.name}': ${x.reason}; refused\n`);
      for (const type of EXTENSION_TYPES) {
        const rows = extensions.filter((e) => e.type === type);
        ctx.io.out(`\n${type[0]!.toUpperCase()}${type.slice(1)} (${rows.length})\n`);
        if (rows.length > 0)
          ctx.io.out(formatTable(['Id', 'Registry', 'Enabled', 'Description'], rows.map(extensionRow)));
      }
    });

  registry
    .command('install')
    .description(
      'clone the configured registries that have a url and are not ' +
        'cloned yet; with an extension, then add it (as `registry add`)',
    )
    .argument('[extension]', '<type>/<name> to add once the registries are cloned (e.g. plugins/acme)')
    .option('--name <name>', 'only this registry')
    .option('--trust', 'with a TypeScript/JavaScript plugin: trust it to run with full rights, pinned in kbctx.lock')
    .action(async (id: string | undefined, opts: { name?: string; trust?: boolean }) => {
      const { installRegistries, addExtension } = await library();
      const results = await installRegistries(registryContext(ctx), opts.name);
      const added = id === undefined ? undefined : await addExtension(registryContext(ctx), id, { trust: opts.trust });
      if (ctx.json) return ctx.printJson({ registries: results, ...(added ? { added } : {}) });
      if (results.length === 0) return ctx.io.out(NO_REGISTRIES);
      for (const r of results) ctx.io.out(`${r.name}: ${INSTALLED[r.outcome]} (${r.path})\n`);
      if (added) printAdded(ctx, added);
    });

  registry
    .command('update')
    .description('pull git registries (refuses to overwrite local changes)')
    .option('--name <name>', 'only this registry')
    .action(async (opts: { name?: string }) => {
      const { updateRegistries } = await library();
      const results = await updateRegistries(registryContext(ctx), opts.name);
      if (ctx.json) return ctx.printJson({ registries: results });
      if (results.length === 0) return ctx.io.out(NO_REGISTRIES);
      for (const { name, outcome: o } of results) {
        if (o.kind === 'updated') ctx.io.out(`${name}: updated ${o.from}..${o.to}\n`);
        else if (o.kind === 'local changes')
          ctx.io.err(
            `${name}: not updated: it has local changes (${o.files.join(', ')}); commit or discard them, or copy ` +
              `extensions with \`kbctx registry override\`\n`,
          );
        else if (o.kind === 'not installed')
          ctx.io.out(`${name}: not installed yet; run \`kbctx registry install --name ${name}\`\n`);
        else ctx.io.out(`${name}: ${o.kind}\n`);
      }
      const refused = results.filter((r) => r.outcome.kind === 'local changes');
      if (refused.length > 0)
        throw new KbctxError(
          'conflict',
          `${refused.map((r) => r.name).join(', ')} not updated because of local changes`,
        );
    });

  registry
    .command('search')
    .description('find extensions by name, tag or description')
    .argument('<query...>')
    .action(async (words: string[]) => {
      const { searchExtensions } = await library();
      const found = searchExtensions(registryContext(ctx), words.join(' '));
      if (ctx.json) return ctx.printJson({ extensions: found });
      if (found.length === 0) return ctx.io.out('No extensions match.\n');
      ctx.io.out(formatTable(['Id', 'Registry', 'Enabled', 'Description'], found.map(extensionRow)));
    });

  registry
    .command('info')
    .description('show an extension: registry, script, description, tags, required config, host APIs')
    .argument('<extension>', '<type>/<name>, type connectors, tools or agents')
    .action(async (id: string) => {
      const { extensionInfo } = await library();
      const e = extensionInfo(registryContext(ctx), id);
      if (ctx.json) return ctx.printJson(e);
      const p = e.entry.plugin;
      const list = (xs: string[]): string => (xs.length > 0 ? xs.join(', ') : '-');
      ctx.io.out(
        [
          `${e.id}`,
          `  registry:        ${e.registry}${e.shadows.length > 0 ? ` (overrides ${e.shadows.join(', ')})` : ''}`,
          p ? `  entry file:      ${e.scriptPath}` : `  script:          ${e.scriptPath}`,
          `  description:     ${e.entry.description || '-'}`,
          `  tags:            ${list(e.entry.tags)}`,
          `  required config: ${list(e.entry.requiredConfig)}`,
          ...(p
            ? pluginLines(p)
            : [
                `  host APIs:       ${list(e.entry.hostApis)} (declared); ` +
                  `${list(e.detectedHostApis)} (used by the script)`,
              ]),
          `  enabled:         ${
            e.enabled
              ? 'yes'
              : `no — \`kbctx registry add ${e.id}${p?.runtime === 'module' ? ' --trust' : ''}\` enables it`
          }`,
          '',
        ].join('\n'),
      );
    });

  registry
    .command('add')
    .description(
      'enable an extension: write its config entry, pre-filled ' +
        'with the required fields; a plugin joins the plugins list',
    )
    .argument('<extension>', '<type>/<name>')
    .option(
      '--trust',
      'with a TypeScript/JavaScript plugin: trust it to run with full ' +
        'rights, pinned in kbctx.lock (again: re-pin a changed file)',
    )
    .action(async (id: string, opts: { trust?: boolean }) => {
      const { addExtension } = await library();
      const r = await addExtension(registryContext(ctx), id, { trust: opts.trust });
      if (ctx.json) return ctx.printJson(r);
      printAdded(ctx, r);
    });

  registry
    .command('override')
    .description('copy an extension from a read-only registry into a writable one, to edit it')
    .argument('<extension>', '<type>/<name>')
    .action(async (id: string) => {
      const { overrideExtension } = await library();
      const r = overrideExtension(registryContext(ctx), id);
      if (ctx.json) return ctx.printJson(r);
      ctx.io.out(
        `Copied ${id} to ${r.to} with its entry in ${r.manifest} (registry '${r.registry}'), which now takes ` +
          `precedence: an enabled ${id} runs the copy.\n`,
      );
    });

  registry
    .command('init')
    .description('clone the community registry and add it to the config (safe to repeat)')
    .option('--path <path>', 'where to clone it (default ~/.kbctx/registries/community)')
    .option('--url <url>', 'clone from this URL instead (a mirror)')
    .action(async (opts: { path?: string; url?: string }) => {
      const { initCommunity } = await library();
      const r = await initCommunity(registryContext(ctx), opts);
      if (ctx.json) return ctx.printJson(r);
      ctx.io.out(
        `Community registry ${r.cloned ? 'cloned to' : 'already at'} ${r.path}; ` +
          `${r.configured ? 'added to the config' : 'already in the config'}.\n`,
      );
    });
}
