// tools-builtin's contract entry: the built-in search tool's parameters for other plugins and the library — eval and
// the Lua bridge's `ctx.search` parse a search as the tool does (ADR 0232). Light: the parser is required on first use.
import { requireOwn } from '../../core/api/plugin.ts';
import type * as SearchParams from './search-params.ts';
import type * as Since from './since.ts';

const own = (): typeof SearchParams => requireOwn<typeof SearchParams>(import.meta.url, './search-params.ts');

/** Validates raw input against the search tool's parameters, then applies the search rules and defaults. */
export const parseSearchParams: typeof SearchParams.parseSearchParams = (...args) => own().parseSearchParams(...args);
/** The search rules for parameters already checked against the tool's spec (`ToolRegistry.call` validates input). */
export const toSearchParams: typeof SearchParams.toSearchParams = (...args) => own().toSearchParams(...args);
/** A `since`/`until` value (date, date-time or duration back from now) as an ISO instant; required on first use. */
export const parseSince: typeof Since.parseSince = (...args) =>
  requireOwn<typeof Since>(import.meta.url, './since.ts').parseSince(...args);
