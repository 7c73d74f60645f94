// The change-event bus `subscriptions/listen` streams subscribe to (the SDK's ServerEventBus), each stream kept with
// the scope of the request that opened it: a sync of a source outside a token's scope is no news to it (ADR 0225).
// Delivers synchronously, like the SDK's in-memory bus; a throwing listener does not stop the others.
import type { ServerEvent, ServerEventBus } from '@modelcontextprotocol/server';
import { type AccessScope, requestOrigin, sourceInScope } from '../../core/index.ts';

type Listener = (event: ServerEvent) => void;

export class ScopedEventBus implements ServerEventBus {
  private readonly listeners = new Map<Listener, AccessScope | undefined>();
  private readonly onerror: (error: Error) => void;

  constructor(onerror: (error: Error) => void) {
    this.onerror = onerror;
  }

  /** An event for every stream (tools or prompts changed: not per document). */
  publish(event: ServerEvent): void {
    this.deliver(event, () => true);
  }

  /** The SDK subscribes while serving the listen request, so the origin is that request's. */
  subscribe(listener: Listener): () => void {
    this.listeners.set(listener, requestOrigin().scope);
    return () => void this.listeners.delete(listener);
  }

  /** `notifications/resources/list_changed` to the streams whose scope holds `source` (a connector label). */
  resourcesChanged(source: string): void {
    this.deliver({ kind: 'resources_list_changed' }, (scope) => scope === undefined || sourceInScope(source, scope));
  }

  private deliver(event: ServerEvent, admits: (scope: AccessScope | undefined) => boolean): void {
    for (const [listener, scope] of [...this.listeners]) {
      if (!admits(scope)) continue;
      try {
        listener(event);
      } catch (error) {
        this.onerror(error as Error);
      }
    }
  }
}
