// The compiled-extension loader's contract with the host (the extensions plugin provides it): each
// `[extensions] modules` entry that loads comes back as a plugin (an adapter) the host applies like a
// `plugins` entry; a module that fails is a reported failure, not an error. Types and one ref.
import type { ExtensionsConfig } from './config/types.ts';
import type { ExtensionAgentContext, ExtensionConnector } from './app/extension-api.ts';
import type { Connector } from './connectors/connector.ts';
import type { Plugin } from './plugin.ts';
import { createServiceRef } from './services.ts';

export interface ExtensionDeps {
  version: string;
  /** What agents' `resolve` receives as `context`. */
  context: ExtensionAgentContext;
  /** Names an extension tool may not take (the built-in tools). */
  reservedTools: ReadonlySet<string>;
  /** Item warnings of its connectors (a bad item is skipped). */
  warn: (message: string) => void;
}

export interface ExtensionLoadFailure {
  /** `extension:<module as written>`. */
  label: string;
  /** The resolved path (when resolution got that far) and the error. */
  message: string;
}

export interface LoadedExtensions {
  /** One plugin per module that loaded, in config order, with the file it came from. */
  plugins: { plugin: Plugin; file: string }[];
  failures: ExtensionLoadFailure[];
}

export interface ExtensionsService {
  load(config: ExtensionsConfig, deps: ExtensionDeps): Promise<LoadedExtensions>;
}

/** Provided by the extensions plugin; absent (`"!extensions"`), configured modules are a config error naming it. */
export const extensionsService = createServiceRef<ExtensionsService>('kbctx.extensions');

/** A compiled extension's connector type as the connector of one configured instance (the adapter is imported on first use). */
export async function extensionConnector(
  def: ExtensionConnector,
  name: string,
  options: Readonly<Record<string, unknown>>,
  timeoutSecs: number,
  warn: (message: string) => void,
): Promise<Connector> {
  const { ExtensionConnectorInstance } = await import('./app/extension-connector-instance.ts');
  return new ExtensionConnectorInstance(def, name, options, timeoutSecs, warn);
}
