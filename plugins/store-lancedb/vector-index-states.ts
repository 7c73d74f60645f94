// Each vector column's ANN index state (vector-index.ts's vectorIndexState) as the store's vector searches read it:
// read once per loaded model (a commit of ours or another process's makes a new one), not per query. Holds no rows.
import type { Table } from '@lancedb/lancedb';
import { vectorIndexState, type VectorIndexState } from './vector-index.ts';

export class VectorIndexStates {
  /** Each column's state and the model (by identity) it was read for. */
  private readonly states = new Map<string, { model: object; state: VectorIndexState | null }>();

  /** The column's index state (null: no index), read from `table` unless already read for `model`. */
  async of(table: Table, column: string, model: object): Promise<VectorIndexState | null> {
    const known = this.states.get(column);
    if (known && known.model === model) return known.state;
    const state = await vectorIndexState(table, column);
    this.states.set(column, { model, state });
    return state;
  }

  /** Forgets every state (an index was built or refreshed). */
  clear(): void {
    this.states.clear();
  }
}
