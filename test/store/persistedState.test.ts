import { describe, expect, it } from 'vitest';
import { MemoryStore } from '../../reference-server/src/store/MemoryStore.js';
import { LOG_METHODS, PERSISTED_STATE } from '../../reference-server/src/store/sqlite/persistedState.js';

/** Names that change state, by the store's naming convention. */
const CHANGES = /^(put|delete|append|prune|set|add|remove|clear|update|record|reserve|drop)/;

describe('persistedState: every change of store state is persisted', () => {
  it('names every MemoryStore method that changes state (add new ones to PERSISTED_STATE)', () => {
    const methods = Object.getOwnPropertyNames(MemoryStore.prototype).filter((m) => {
      const d = Object.getOwnPropertyDescriptor(MemoryStore.prototype, m);
      return m !== 'constructor' && typeof d?.value === 'function';
    });
    const persisted = new Set<string>([...LOG_METHODS, ...Object.values(PERSISTED_STATE).flatMap((k) => Object.keys(k.writes))]);
    expect(methods.filter((m) => CHANGES.test(m) && !persisted.has(m))).toEqual([]);
    // And the table names only methods that exist.
    expect([...persisted].filter((m) => !methods.includes(m))).toEqual([]);
  });
});
