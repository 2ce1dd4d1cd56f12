/** A lone UTF-16 surrogate: half of a pair, which no character encoding can store or print. */
const LONE_SURROGATE = /\p{Surrogate}/u;

function hasLoneSurrogate(root: unknown): boolean {
  const stack: unknown[] = [root];
  while (stack.length > 0) {
    const value = stack.pop();
    if (typeof value === 'string') {
      if (LONE_SURROGATE.test(value)) return true;
    } else if (Array.isArray(value)) {
      for (const item of value) stack.push(item);
    } else if (value !== null && typeof value === 'object') {
      for (const key of Object.keys(value)) {
        if (LONE_SURROGATE.test(key)) return true;
        stack.push((value as Record<string, unknown>)[key]);
      }
    }
  }
  return false;
}

const join = (path: string, key: string) => (path ? `${path}.${key}` : key);

function firstLoneSurrogatePath(root: unknown, prefix: string): string {
  const stack: Array<[unknown, string]> = [[root, prefix]];
  for (let item = stack.pop(); item; item = stack.pop()) {
    const [value, path] = item;
    if (typeof value === 'string' && LONE_SURROGATE.test(value)) return path || '(root)';
    if (value === null || typeof value !== 'object') continue;
    const entries = Array.isArray(value)
      ? value.map((v, i) => [String(i), v] as const)
      : Object.entries(value);
    for (const [key, v] of entries) {
      if (LONE_SURROGATE.test(key)) return join(path, key);
      stack.push([v, join(path, key)]);
    }
  }
  return prefix || '(root)';
}

/**
 * Where a request part holds text with a lone UTF-16 surrogate ("\ud800" in JSON), or undefined when all its
 * text (keys included) is well formed. Such text cannot be stored as UTF-8 or printed, so every route refuses
 * it. The clean case, every request's, walks once without building paths.
 */
export function loneSurrogatePath(value: unknown, prefix = ''): string | undefined {
  return hasLoneSurrogate(value) ? firstLoneSurrogatePath(value, prefix) : undefined;
}
