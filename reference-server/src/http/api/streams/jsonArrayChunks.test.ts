import { describe, expect, it } from 'vitest';
import { jsonArrayChunks } from './jsonArrayChunks.js';

async function text(elements: unknown[]): Promise<{ chunks: string[]; joined: string }> {
  async function* source() {
    yield* elements;
  }
  const chunks: string[] = [];
  for await (const c of jsonArrayChunks(source())) chunks.push(c);
  return { chunks, joined: chunks.join('') };
}

describe('jsonArrayChunks', () => {
  it('writes an empty array', async () => {
    expect((await text([])).joined).toBe('[]');
  });
  it('writes elements as one JSON array, opening bracket first', async () => {
    const { chunks, joined } = await text([{ a: 1 }, 'x', null]);
    expect(chunks[0]).toBe('[');
    expect(JSON.parse(joined)).toEqual([{ a: 1 }, 'x', null]);
  });
  it('splits large output into several chunks', async () => {
    const big = Array.from({ length: 2000 }, (_, i) => ({ i, pad: 'p'.repeat(100) }));
    const { chunks, joined } = await text(big);
    expect(chunks.length).toBeGreaterThan(3);
    expect(JSON.parse(joined)).toEqual(big);
  });
});
