/**
 * The objects and arrays of a decoded tree (an expression), each once per path to it, without
 * recursion: package code decides how deep a tree is, so no walk of one may use the JS stack.
 */
export function* objectsOf(root: unknown): Generator<object> {
  const stack: unknown[] = [root];
  while (stack.length > 0) {
    const v = stack.pop();
    if (typeof v !== 'object' || v === null) continue;
    yield v;
    for (const child of Array.isArray(v) ? v : Object.values(v)) if (typeof child === 'object' && child !== null) stack.push(child);
  }
}
