/**
 * How deeply a JSON value nests, counted without recursion (a hostile body may nest 100,000
 * levels). Only objects and arrays go on the stack, each beside its depth: a leaf costs nothing.
 */
export function nestingDepth(value: unknown, stopAt = Infinity): number {
  if (typeof value !== 'object' || value === null) return 0;
  let deepest = 0;
  const nodes: object[] = [value];
  const depths: number[] = [1];
  for (let node = nodes.pop(); node !== undefined; node = nodes.pop()) {
    const depth = depths.pop()!;
    if (depth > deepest) deepest = depth;
    if (deepest > stopAt) return deepest;
    for (const child of Array.isArray(node) ? node : Object.values(node)) {
      if (typeof child !== 'object' || child === null) continue;
      nodes.push(child);
      depths.push(depth + 1);
    }
  }
  return deepest;
}
