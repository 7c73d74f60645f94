// The one error family of kbctx. Every failure a user can cause or see carries a stable `code`;
// surfaces map codes through ERROR_TABLE (error-table.ts) and never read messages to pick a status.
import type { ErrorCode } from './error-table.ts';

export class KbctxError extends Error {
  readonly code: ErrorCode;
  /** Extra machine-readable context (e.g. the offending parameter), safe to show to clients. */
  readonly details: Readonly<Record<string, unknown>> | undefined;

  constructor(code: ErrorCode, message: string, options?: { cause?: unknown; details?: Record<string, unknown> }) {
    super(message, options?.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'KbctxError';
    this.code = code;
    this.details = options?.details;
  }
}

export const badRequest = (message: string, details?: Record<string, unknown>): KbctxError =>
  new KbctxError('bad_request', message, details ? { details } : undefined);

export const notFound = (message: string): KbctxError => new KbctxError('not_found', message);

export const configError = (message: string, cause?: unknown): KbctxError =>
  new KbctxError('config_error', message, cause === undefined ? undefined : { cause });

export const isKbctxError = (value: unknown): value is KbctxError => value instanceof KbctxError;
