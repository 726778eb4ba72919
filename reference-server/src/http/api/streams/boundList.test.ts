import { describe, expect, it } from 'vitest';
import { boundList } from './boundList.js';

async function collect<T>(source: AsyncIterable<T>): Promise<T[]> {
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
