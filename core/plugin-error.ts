// The error a failing tap becomes: it names the plugin and the hook (Rollup's PLUGIN_ERROR). A
// KbctxError a tap raises on purpose keeps its code; one of a kind users act on (a config mistake, a
// bad argument, an address in use: USER_FACING) keeps its own message too, without the hook jargon.
import { KbctxError, isKbctxError, type ErrorCode } from './domain/errors.ts';

/**
 * Codes whose message is addressed to the user and complete: printed as the plugin wrote it (the CLI
 * names a non-bundled plugin in a trailing hint). Other codes (timeout, script_error, upstream_error,
 * internal…) and foreign errors keep the `plugin 'x' failed in hook y:` prefix: unexpected, so the
 * culprit leads.
 */
const USER_FACING: ReadonlySet<ErrorCode> = new Set<ErrorCode>([
  'config_error',
  'usage',
  'bad_request',
  'not_found',
  'conflict',
  'unavailable',
  'embeddings_not_configured',
  'unauthorized',
  'forbidden',
  'payload_too_large',
  'unsupported_media_type',
]);

/** What a tap returned that its hook cannot use: a short description of it, and the shape the hook expects. */
export interface WrongResult {
  got: string;
  expected: string;
}

export class PluginError extends KbctxError {
  readonly plugin: string;
  readonly hook: string;
  /** What the hook call was about, in words (`document 'notes/a.md'`, `query "x"`, `tool 'echo'`), when known. */
  readonly item: string | undefined;
  /** The message without the item (for a report that names the item itself, as a sync note does). */
  readonly withoutItem: string;
  /** The tap's name when it differs from the plugin's (`plugin 'acme' (tap 'acme-redact') failed …`). */
  readonly tap: string | undefined;

  /** `wrong`: the tap returned a value of the wrong shape (no cause: the tap did not fail, its answer is unusable). */
  constructor(
    plugin: string,
    hook: string,
    cause: unknown,
    options: { item?: string | undefined; tap?: string | undefined; wrong?: WrongResult } = {},
  ) {
    const { item, tap, wrong } = options;
    const who = tap === undefined || tap === plugin ? `plugin '${plugin}'` : `plugin '${plugin}' (tap '${tap}')`;
    const own = wrong === undefined && isKbctxError(cause) && USER_FACING.has(cause.code);
    const reason =
      cause instanceof Error
        ? cause.message
        : cause === undefined
          ? 'rejected without a reason'
          : `rejected with ${safeString(cause)}`;
    const withoutItem = wrong
      ? `${who} returned ${wrong.got} from hook ${hook}: expected ${wrong.expected}`
      : own
        ? reason
        : `${who} failed in hook ${hook}: ${reason}`;
    const code = wrong === undefined && isKbctxError(cause) ? cause.code : 'plugin_error';
    super(
      code,
      own || item === undefined ? withoutItem : `${withoutItem} (on ${item})`,
      wrong === undefined ? { cause } : undefined,
    );
    this.name = 'PluginError';
    this.plugin = plugin;
    this.hook = hook;
    this.item = item;
    this.withoutItem = withoutItem;
    this.tap = tap === plugin ? undefined : tap;
  }

  /** True when the message is the plugin's own (a user-facing KbctxError), without the hook prefix. */
  get ownMessage(): boolean {
    return isKbctxError(this.cause) && USER_FACING.has(this.cause.code);
  }
}

function safeString(value: unknown): string {
  try {
    return JSON.stringify(value) ?? String(value);
  } catch {
    return String(value);
  }
}
