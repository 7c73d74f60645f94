// Typed service slots (Backstage's ServiceRef): a plugin provides an implementation under a ref and
// others use it, instead of decorating the kernel. One provider per ref; a second is an error.
import { configError } from './domain/errors.ts';

export interface ServiceRef<T> {
  readonly id: string;
  /** Type carrier only; never read. */
  readonly __type?: T;
}

export const createServiceRef = <T>(id: string): ServiceRef<T> => Object.freeze({ id });

export class ServiceRegistry {
  private readonly services = new Map<string, { plugin: string; impl: unknown }>();

  provide<T>(ref: ServiceRef<T>, impl: T, plugin: string): void {
    const existing = this.services.get(ref.id);
    if (existing)
      throw configError(
        `plugin '${plugin}' provides service '${ref.id}', already provided by plugin '${existing.plugin}'`,
      );
    this.services.set(ref.id, { plugin, impl });
  }

  use<T>(ref: ServiceRef<T>): T {
    const entry = this.services.get(ref.id);
    if (!entry) throw configError(`no loaded plugin provides service '${ref.id}'`);
    return entry.impl as T;
  }

  has(ref: ServiceRef<unknown>): boolean {
    return this.services.has(ref.id);
  }

  /** Service id → providing plugin. */
  providers(): Map<string, string> {
    return new Map([...this.services].map(([id, { plugin }]) => [id, plugin]));
  }
}
