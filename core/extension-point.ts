// Plugin-owned hooks (webpack's `getCompilationHooks(compilation)`, Backstage's `createExtensionPoint`):
// a plugin declares hooks of its own in its contract entry (`plugins/<name>/api.ts`), calls them itself,
// and other plugins tap them through that entry. The kernel never learns what they carry: it creates a
// point's hooks once per kernel, on the first request, with the attribution of its own hooks.
import type { Hook, HookMap } from 'tapable';

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- any hook, whatever it carries
export type HookSet = Readonly<Record<string, Hook<any, any> | HookMap<any>>>;

export interface ExtensionPoint<H extends HookSet> {
  /**
   * The owning plugin's name. A plugin that imports only types (no install) asks for the hooks by it:
   * `kernel.hooksOf<HttpHooks>('transport-http')`, once the owner is applied.
   */
  readonly id: string;
  /** Creates the hooks; called once per kernel. Each hook is named (tapable's second argument) after its key. */
  readonly hooks: () => H;
  /** Per-hook tap time-outs (ms); a hook not listed gets 30 s, 0: none. */
  readonly tapTimeoutMs?: Readonly<Partial<Record<keyof H & string, number>>>;
}

/**
 * Identity, for types: `export const httpHooks = defineExtensionPoint({ id: 'transport-http', hooks: () => ({...}) })`.
 */
export const defineExtensionPoint = <H extends HookSet>(point: ExtensionPoint<H>): ExtensionPoint<H> =>
  Object.freeze(point);

export const EXTENSION_TAP_TIMEOUT_MS = 30_000;
