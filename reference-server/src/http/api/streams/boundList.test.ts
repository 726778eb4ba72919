import { describe, expect, it } from 'vitest';
import { boundList, type ListSource } from './boundList.js';

async function collect<T>(source: ListSource<T>): Promise<T[]> {
  const out: T[] = [];
  for await (const x of source) out.push(x);
  return out;
}

async function* generate(n: number, pulled: { count: number }): AsyncGenerator<number> {
  for (let i = 0; i < n; i++) {
    pulled.count++;
    yield i;
  }
}

describe('boundList', () => {
  it('truncates to a limit within the maximum, without 413', async () => {
    const r = await boundList([1, 2, 3, 4, 5], { limit: 2, max: 3 });
    expect(r.ok && (await collect(r.value))).toEqual([1, 2]);
  });

  it('refuses an array longer than the maximum when no limit is given', async () => {
    expect(await boundList([1, 2, 3, 4], { limit: undefined, max: 3 })).toEqual({ ok: false, error: { kind: 'list-too-large', limit: 3 } });
  });

  it('ignores a limit above the maximum, as the participant does', async () => {
    expect(await boundList([1, 2, 3, 4], { limit: 10, max: 3 })).toEqual({ ok: false, error: { kind: 'list-too-large', limit: 3 } });
    const r = await boundList([1, 2, 3], { limit: 10, max: 3 });
    expect(r.ok && (await collect(r.value))).toEqual([1, 2, 3]);
  });

  it('keeps a synchronous source synchronous, and reads it ahead only up to max + 1', () => {
    let pulled = 0;
    function* lazy() {
      for (let i = 0; i < 1000; i++) {
        pulled++;
        yield i;
      }
    }
    return boundList(lazy(), { limit: 3, max: 5 }).then((r) => {
      expect(r.ok && Symbol.iterator in r.value && !(Symbol.asyncIterator in r.value)).toBe(true);
      return boundList(lazy(), { limit: undefined, max: 5 }).then((tooMany) => {
        expect(tooMany.ok).toBe(false);
        expect(pulled).toBe(6);
      });
    });
  });

  it('counts a reopenable source in a first pass, then streams a fresh copy', async () => {
    let opened = 0;
    const open = () => {
      opened++;
      return (function* () {
        yield* ['a', 'b', 'c'];
      })();
    };
    const r = await boundList(open(), { limit: undefined, max: 3 }, open);
    expect(opened).toBe(2);
    expect(r.ok && (await collect(r.value))).toEqual(['a', 'b', 'c']);
    expect(await boundList(open(), { limit: undefined, max: 2 }, open)).toEqual({ ok: false, error: { kind: 'list-too-large', limit: 2 } });
  });

  it('reads a lazy source ahead only up to max + 1 elements', async () => {
    const pulled = { count: 0 };
    expect((await boundList(generate(1000, pulled), { limit: undefined, max: 5 })).ok).toBe(false);
    expect(pulled.count).toBe(6);
  });

  it('passes a lazy source through when it fits, and a limit of 0 gives nothing', async () => {
    const r = await boundList(generate(3, { count: 0 }), { limit: undefined, max: 5 });
    expect(r.ok && (await collect(r.value))).toEqual([0, 1, 2]);
    const none = await boundList(generate(3, { count: 0 }), { limit: 0, max: 5 });
    expect(none.ok && (await collect(none.value))).toEqual([]);
  });
});
