/**
 * Control characters no text field takes: C0 except TAB, LF and CR, DEL and
 * C1. PostgreSQL refuses NUL outright, and the others have no business in
 * names, filters or rich text (they hide text and break logs and CSV).
 */
export const CONTROL_CHARACTERS = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F-\u009F]/;

/** Unpaired UTF-16 surrogates: not text, and not storable as UTF-8. */
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

export function isCleanText(s: string): boolean {
  return !CONTROL_CHARACTERS.test(s) && !LONE_SURROGATE.test(s);
}

/**
 * The dotted path of the first string (value or key) in `value` that holds a
 * control character or a lone surrogate, or null when all are clean. Walks
 * without recursion, so a deeply nested body cannot exhaust the stack.
 */
export function findUncleanText(value: unknown): string | null {
  const stack: [unknown, string][] = [[value, '']];
  while (stack.length) {
    const [v, path] = stack.pop()!;
    if (typeof v === 'string') {
      if (!isCleanText(v)) return path;
    } else if (Array.isArray(v)) {
      for (let i = v.length - 1; i >= 0; i--) stack.push([v[i], path ? `${path}.${i}` : String(i)]);
    } else if (v !== null && typeof v === 'object') {
      for (const key of Object.keys(v)) {
        const child = path ? `${path}.${key}` : key;
        if (!isCleanText(key)) return child;
        stack.push([(v as Record<string, unknown>)[key], child]);
      }
    }
  }
  return null;
}

/** "1 second", "2 seconds", "1 session", "0 sessions": a count with its noun, never "1 seconds" or "session(s)". */
export function countOf(n: number, singular: string, pluralForm = `${singular}s`): string {
  return `${n.toLocaleString('en')} ${n === 1 ? singular : pluralForm}`;
}
