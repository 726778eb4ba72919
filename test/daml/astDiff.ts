/**
 * The first difference between two engine ASTs (packages, modules, expressions, types, values),
 * or `undefined` when equal: plain objects by own enumerable keys (lazy getters such as
 * `DefValue.expr` are forced), Maps by entries in order, arrays by items, bigints by value.
 * Evaluator caches (`cache`) are ignored. Iterative, and each pair of shared nodes is compared once,
 * so the ASTs of real packages (interned types shared thousands of times) compare quickly.
 */
export function astDiff(a: unknown, b: unknown): string | undefined {
  // Each node's partner once compared: shared nodes are compared once (their partners are shared alike).
  const matched = new Map<object, object>();
  const stack: [unknown, unknown, string][] = [[a, b, '$']];
  while (stack.length > 0) {
    const [x, y, path] = stack.pop()!;
    if (x === y) continue;
    if (typeof x !== 'object' || typeof y !== 'object' || x === null || y === null) {
      return `${path}: ${show(x)} vs ${show(y)}`;
    }
    if (matched.get(x) === y) continue;
    matched.set(x, y);
    if (x instanceof Map || y instanceof Map) {
      if (!(x instanceof Map && y instanceof Map)) return `${path}: a Map vs not`;
      const xs = [...x.entries()];
      const ys = [...y.entries()];
      if (xs.length !== ys.length) return `${path}: ${xs.length} entries vs ${ys.length} (${xs.map((e) => String(e[0])).join(',')} / ${ys.map((e) => String(e[0])).join(',')})`;
      for (let i = xs.length - 1; i >= 0; i--) {
        if (xs[i]![0] !== ys[i]![0]) return `${path}: key ${String(xs[i]![0])} vs ${String(ys[i]![0])}`;
        stack.push([xs[i]![1], ys[i]![1], `${path}.get(${String(xs[i]![0])})`]);
      }
      continue;
    }
    if (Array.isArray(x) || Array.isArray(y)) {
      if (!(Array.isArray(x) && Array.isArray(y))) return `${path}: an array vs not`;
      if (x.length !== y.length) return `${path}: length ${x.length} vs ${y.length}`;
      for (let i = x.length - 1; i >= 0; i--) stack.push([x[i], y[i], `${path}[${i}]`]);
      continue;
    }
    const xr = x as Record<string, unknown>, yr = y as Record<string, unknown>;
    const keys = new Set([...Object.keys(x), ...Object.keys(y)]);
    for (const k of keys) {
      if (k === 'cache') continue;
      if ((xr[k] === undefined) !== (yr[k] === undefined)) return `${path}.${k}: ${show(xr[k])} vs ${show(yr[k])}`;
      stack.push([xr[k], yr[k], `${path}.${k}`]);
    }
  }
  return undefined;
}

function show(v: unknown): string {
  return typeof v === 'bigint' ? `${v}n` : typeof v === 'string' ? JSON.stringify(v.length > 80 ? `${v.slice(0, 80)}...` : v) : String(v);
}
