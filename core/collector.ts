// The argument of a collector hook (`tools`, `agents`): `add(item)` records the item together with
// the plugin that added it (the tap attribution hands each tap its own view), so the item's calls
// get that plugin's context.
import type { Collector } from './hook-types.ts';
import type { PluginScoped } from './plugin-context.ts';

export class PerPluginCollector<T> implements Collector<T>, PluginScoped<Collector<T>> {
  private readonly sink: (plugin: string, item: T) => void;
  private readonly plugin: string;

  constructor(sink: (plugin: string, item: T) => void, plugin = 'kbctx') {
    this.sink = sink;
    this.plugin = plugin;
  }

  add(item: T): void {
    this.sink(this.plugin, item);
  }

  forPlugin(plugin: string): Collector<T> {
    return new PerPluginCollector(this.sink, plugin);
  }
}
