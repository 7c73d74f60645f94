// `[agents.inline.*]` as a kernel service: the host provides the sections (and the check that fails
// an agent naming an unset `${VAR}` it uses), the agents-inline plugin turns them into agents.
import { createServiceRef } from '../services.ts';
import type { InlineAgentConfig } from '../config/types.ts';

export interface InlineAgentsService {
  agents: Readonly<Record<string, InlineAgentConfig>>;
  /** Throws config_error naming the unset `${VAR}` an agent's section uses (undefined: none unset). */
  check(name: string): (() => void) | undefined;
}

export const inlineAgentsService = createServiceRef<InlineAgentsService>('kbctx.agents.inline');
