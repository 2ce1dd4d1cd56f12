/** A lone UTF-16 surrogate: half of a pair, which no character encoding can store or print. */
const LONE_SURROGATE = /\p{Surrogate}/u;

/** A NUL character: PostgreSQL cannot store it in text, and no query parameter means it (issue 26 L3). */
const NUL = /\0/;

function holds(root: unknown, pattern: RegExp): boolean {
  const stack: unknown[] = [root];
  while (stack.length > 0) {
    const value = stack.pop();
    if (typeof value === 'string') {
      if (pattern.test(value)) return true;
    } else if (Array.isArray(value)) {
      for (const item of value) stack.push(item);
    } else if (value !== null && typeof value === 'object') {
      for (const key of Object.keys(value)) {
        if (pattern.test(key)) return true;
        stack.push((value as Record<string, unknown>)[key]);
      }
    }
  }
  return false;
}

const join = (path: string, key: string) => (path ? `${path}.${key}` : key);

function firstPath(root: unknown, prefix: string, pattern: RegExp): string {
  const stack: Array<[unknown, string]> = [[root, prefix]];
  for (let item = stack.pop(); item; item = stack.pop()) {
    const [value, path] = item;
    if (typeof value === 'string' && pattern.test(value)) return path || '(root)';
    if (value === null || typeof value !== 'object') continue;
    const entries = Array.isArray(value)
      ? value.map((v, i) => [String(i), v] as const)
      : Object.entries(value);
    for (const [key, v] of entries) {
      if (pattern.test(key)) return join(path, key);
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
  return holds(value, LONE_SURROGATE) ? firstPath(value, prefix, LONE_SURROGATE) : undefined;
}

/** Where a query or path parameter holds a NUL character, or undefined (every route refuses it: 400). */
export function nulPath(value: unknown, prefix: string): string | undefined {
  return holds(value, NUL) ? firstPath(value, prefix, NUL) : undefined;
}

/**
 * The text rules every request part obeys before its schema: no lone surrogate anywhere, no NUL character in
 * a query or path parameter. Answers the field errors (the parameter named), or undefined.
 */
export function malformedText(
  value: unknown,
  where: 'body' | 'query' | 'params',
): Array<{ path: string; message: string }> | undefined {
  const prefix = where === 'body' ? '' : where;
  const broken = loneSurrogatePath(value, prefix);
  if (broken !== undefined)
    return [{ path: broken, message: 'contains a lone UTF-16 surrogate (broken text)' }];
  const nul = where === 'body' ? undefined : nulPath(value, prefix);
  if (nul !== undefined) return [{ path: nul, message: 'contains a NUL character' }];
  return undefined;
}
