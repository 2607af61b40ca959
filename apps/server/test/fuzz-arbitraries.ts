import fc from 'fast-check';
import { z } from 'zod';

/**
 * Request generators for the schema-driven fuzz tests (fuzz-harness.ts): a route's zod schemas are
 * turned into JSON Schema, and the JSON Schema into fast-check arbitraries that mix values of the
 * right shape with hostile ones. Bodies are built as JSON text by hand, so they can carry what
 * JSON.stringify cannot: a literal `"__proto__"` key, duplicate keys, `-0`, numbers too large for
 * a double, raw number tokens.
 */

// ── JSON values as sent ──────────────────────────────────────────────────────

/** A JSON token sent verbatim (`1e309`, `-0`, 400 digits…). */
export class Raw {
  constructor(readonly text: string) {}
  [fc.toStringMethod](): string {
    return `Raw(${short(this.text)})`;
  }
}

/** A JSON object as a list of entries: key order, duplicate and `__proto__` keys survive. */
export class Obj {
  constructor(readonly entries: [string, Val][]) {}
  [fc.toStringMethod](): string {
    return short(toJson(this));
  }
}

export type Val = null | boolean | number | string | Raw | Obj | Val[];

export function toJson(v: Val): string {
  if (v instanceof Raw) return v.text;
  if (v instanceof Obj) return `{${v.entries.map(([k, x]) => `${JSON.stringify(k)}:${toJson(x)}`).join(',')}}`;
  if (Array.isArray(v)) return `[${v.map(toJson).join(',')}]`;
  if (typeof v === 'number') return Object.is(v, -0) ? '-0' : Number.isFinite(v) ? JSON.stringify(v) : 'null';
  return JSON.stringify(v);
}

/** For messages: long text cut in the middle, control characters and lone surrogates made visible. */
export function short(text: string, max = 300): string {
  const cut = text.length > max ? `${text.slice(0, max / 2)}…(${text.length} chars)…${text.slice(-max / 4)}` : text;
  return cut.replace(/[\u0000-\u001f\u007f-\u009f\u2028\u2029]|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

// ── JSON Schema ──────────────────────────────────────────────────────────────

export interface JsonSchema {
  type?: string | string[];
  properties?: Record<string, JsonSchema>;
  required?: string[];
  additionalProperties?: boolean | JsonSchema;
  items?: JsonSchema | JsonSchema[];
  prefixItems?: JsonSchema[];
  enum?: unknown[];
  const?: unknown;
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
  allOf?: JsonSchema[];
  minLength?: number;
  maxLength?: number;
  minimum?: number;
  maximum?: number;
  exclusiveMinimum?: number;
  exclusiveMaximum?: number;
  minItems?: number;
  maxItems?: number;
  pattern?: string;
  format?: string;
  $ref?: string;
  $defs?: Record<string, JsonSchema>;
  default?: unknown;
}

/** The route schema as JSON Schema (what a client would send), or null when zod cannot say. */
export function toJsonSchema(schema: unknown): JsonSchema | null {
  if (!schema) return null;
  try {
    return z.toJSONSchema(schema as z.ZodType, { io: 'input', unrepresentable: 'any' }) as JsonSchema;
  } catch {
    return null;
  }
}

function resolve(s: JsonSchema, root: JsonSchema): JsonSchema {
  let cur = s;
  for (let i = 0; i < 10 && cur.$ref; i++) {
    const m = /^#\/(?:\$defs|definitions)\/(.+)$/.exec(cur.$ref);
    const next = m ? (root.$defs as Record<string, JsonSchema> | undefined)?.[decodeURIComponent(m[1]!)] : undefined;
    if (!next) return {};
    cur = next;
  }
  return cur;
}

function typesOf(s: JsonSchema): string[] {
  if (Array.isArray(s.type)) return s.type;
  if (s.type) return [s.type];
  if (s.properties) return ['object'];
  if (s.items || s.prefixItems) return ['array'];
  return [];
}

// ── Hostile material ─────────────────────────────────────────────────────────

export const CONTROL_CHARS = ['\u0000', '\u0007', '\u001b', '\u007f', '\u0085', '\u0008', '\u000b', '\u009b'];
const UNICODE = [
  '😀', '👨‍👩‍👧‍👦', '🏳️‍🌈', '\u202e', '\u202d', 'مرحبا', 'שלום', 'e\u0301', 'Z̴̡͓̈́a̷̢l̶g̷o', '\u2028', '\u2029', '\u200b', '\u200d', '\ufeff', 'ｆｕｌｌ', 'İ', 'ß', 'ﬀ',
  '\uffff', '\ufffd', '𝕏', '中文', 'ǅ', '\u00a0', '\u3000',
];
const LONE_SURROGATES = ['\ud800', '\udfff', 'a\ud800b', '\udc00\ud800', 'x\udbff'];
const TRICKY = [
  "' or '1'='1", "'; drop table admins; --", '%', '_', '%_%', '\\', '\\\\', '"', "'", '`', '<script>alert(1)</script>', `$${'{7*7}'}`, '{{7*7}}', '../../etc/passwd',
  'null', 'undefined', 'NaN', 'Infinity', '-Infinity', '-1', '0', '-0', '1e3', '1.5', '0x10', '0b1', '+1', '1,2', '9'.repeat(40), ' ', '', '  padded  ',
  '__proto__', 'constructor', 'prototype', 'toString', 'hasOwnProperty', 'true', 'false', '[object Object]', '*', '?', '#', '&', '=', '/', '//', ';',
  'a'.repeat(255), '2024-02-30', '0000-00-00', '9999-99-99', 'now()', 'ROOT@PITBOSS.TEST', 'root@pitboss.test',
];
/** Numbers JSON carries but a double or an int column may not. */
const NUMBERS: Val[] = [
  Number.MAX_SAFE_INTEGER + 2, Number.MAX_SAFE_INTEGER, -Number.MAX_SAFE_INTEGER - 2, -0, 1.5, -1.5, 1e21, -1e21, 1e-7, -1, 0, 1, 2 ** 31, 2 ** 31 - 1, 2 ** 32, 2 ** 53,
  2 ** 63, 1e308, 5e-324, 100001, 1001,
  new Raw('1e309'), new Raw('-1e309'), new Raw('9'.repeat(400)), new Raw('-0'), new Raw(`0.${'0'.repeat(300)}1`), new Raw('1E+2'), new Raw('12345678901234567890'),
  new Raw('9223372036854775808'), new Raw('-9223372036854775809'), new Raw('1.0'), new Raw('10e-1'),
];

export const hugeString = fc
  .tuple(fc.integer({ min: 10_000, max: 100_000 }), fc.constantFrom('a', 'é', '😀', 'e\u0301', 'x ', '%', '\\'))
  .map(([n, unit]) => unit.repeat(Math.ceil(n / unit.length)));

export const hostileString: fc.Arbitrary<string> = fc.oneof(
  fc.tuple(fc.string({ maxLength: 4 }), fc.constantFrom(...CONTROL_CHARS), fc.string({ maxLength: 4 })).map(([a, c, b]) => a + c + b),
  fc.tuple(fc.string({ maxLength: 3 }), fc.constantFrom(...LONE_SURROGATES)).map(([a, b]) => a + b),
  fc.array(fc.constantFrom(...UNICODE), { minLength: 1, maxLength: 6 }).map((a) => a.join('')),
  fc.constantFrom(...TRICKY),
  { arbitrary: hugeString, weight: 1 },
  fc.string({ unit: 'binary', maxLength: 20 }),
  fc.string({ unit: 'grapheme', maxLength: 20 }),
);

/** 5000 levels of arrays or objects (the parser and the validators must not blow their stack). */
const DEEP: Val[] = [new Raw(`${'['.repeat(5000)}${']'.repeat(5000)}`), new Raw(`${'{"a":'.repeat(5000)}1${'}'.repeat(5000)}`)];

const PROTO_KEYS = ['__proto__', 'constructor', 'prototype'];
const protoPayload: Val[] = [
  new Obj([['isSuper', true], ['role', 'superadmin']]),
  new Obj([['prototype', new Obj([['polluted', true]])]]),
  new Obj([['toString', 'x']]),
  true,
  'x',
];

/** Keys a client should not send: prototype keys, empty, control characters, unicode, huge. */
export const oddKey: fc.Arbitrary<string> = fc.oneof(
  { arbitrary: fc.constantFrom(...PROTO_KEYS), weight: 3 },
  fc.constantFrom('', ' ', 'id', '_id', 'role', 'isSuper', 'password_hash', 'passwordHash', 'createdBy', 'hasOwnProperty', 'toString', 'a.b', 'a[b]', '$where', '😀', '\u202e'),
  fc.tuple(fc.string({ maxLength: 3 }), fc.constantFrom(...CONTROL_CHARS)).map(([a, c]) => a + c),
  fc.string({ maxLength: 10 }),
);

/** Any value at all, mostly the wrong kind for wherever it lands. */
export function hostileValue(depth = 0): fc.Arbitrary<Val> {
  const scalars: fc.Arbitrary<Val>[] = [
    fc.constantFrom(...NUMBERS),
    fc.integer().map((n): Val => n),
    fc.double({ noNaN: true, noDefaultInfinity: true }).map((n): Val => n),
    hostileString.map((x): Val => x),
    fc.constantFrom<Val>(true, false, null),
  ];
  if (depth >= 2) return fc.oneof(...scalars);
  return fc.oneof(
    ...scalars,
    fc.constantFrom<Val>([], new Obj([]), ...DEEP),
    fc.array(hostileValue(depth + 1), { maxLength: 3 }).map((a): Val => a),
    fc.array(fc.tuple(oddKey, hostileValue(depth + 1)), { maxLength: 3 }).map((e): Val => new Obj(e)),
    fc.tuple(fc.constantFrom(...PROTO_KEYS), fc.constantFrom(...protoPayload)).map(([k, v]): Val => new Obj([[k, v]])),
  );
}

// ── Hints: realistic values by field name, so some requests get past validation ─────────────

export interface Hints {
  /** Ids of existing records (for `ids`, `moduleId`, `id`…). */
  ids: string[];
  /** Names of rights, modules… (for `name`). */
  names: string[];
  /** Sortable column keys of the resource. */
  sorts: string[];
}

const cursor = (value: unknown, id: string) => Buffer.from(JSON.stringify([value, id])).toString('base64url');

function hintsFor(key: string, h: Hints): string[] {
  const k = key.toLowerCase();
  if (k.includes('email') || k === 'toaddress') return ['someone@example.com', 'root@pitboss.test', 'ROOT@PITBOSS.TEST', 'a@b.co', 'x@localhost', 'sub@pitboss.test', '"quoted"@example.com'];
  if (k.includes('password')) return ['Zebra-Quartz-Mango-81', 'short', 'password1234', 'aaaaaaaaaaaa', 'Xy7!Xy7!Xy7!Xy7!'];
  if (k === 'address') {
    return [
      '203.0.113.9', '203.0.113.0/24', '2001:db8::1', '2001:db8::/48', '198.51.100.0/24', '10.0.0.0/8', '::ffff:203.0.113.1', '1.2.3.4/33', '256.1.1.1', '0x7f000001',
      '11111111111111111111111111111111', 'So11111111111111111111111111111111111111112', 'TokenkegQfeZyiNwAJbNbGKPFXCWuBvf9Ss623VQ5DA', 'Vote111111111111111111111111111111111111111',
      'SysvarRent111111111111111111111111111111111', '0OIl0OIl0OIl0OIl0OIl0OIl0OIl0OIl',
    ];
  }
  if (k === 'id' || k === 'ids' || k.endsWith('id')) return [...h.ids, '1', '0', '999999999999999999'];
  if (k === 'sort') return [...h.sorts.flatMap((x) => [x, `-${x}`]), '--name', 'passwordHash', 'id', '-', ''];
  if (k === 'cursor') {
    return [
      cursor('x', '1'), cursor(0, '1'), cursor('2024-13-45', '1'), cursor('1970-01-01T00:00:00.000Z', '1'), cursor(1e308, '1'), cursor({ a: 1 }, '1'), cursor('x', '99999999999999999999'),
      cursor('\u0000', '1'), 'e30', '!!!', cursor(Number.MAX_SAFE_INTEGER, '999999999999999999'),
    ];
  }
  if (k === 'status' || k === 'success' || k === 'archived') return ['active', 'inactive', 'disabled', 'active,inactive', 'true', 'false', 'true,false', ',', 'held', 'sent'];
  if (k === 'name' || k === 'modulename' || k === 'resource' || k === 'category') return [...h.names, 'General', 'Seed', 'x'];
  if (k.endsWith('_from') || k.endsWith('_to')) return ['2024-01-01', '2024-02-30', '0000-01-01', '9999-12-31', '2024-13-45', '1970-01-01'];
  if (k.endsWith('_min') || k.endsWith('_max')) return ['-1', '0', '999999999999999999', '-999999999999999999', '100000'];
  if (k === 'page' || k === 'limit') return ['1', '0', '-1', '1e3', '1.5', '200', '201', '1000000', '1000001', '99999999999999999999', 'NaN', ' 1', '0x10', ''];
  if (k === 'slug') return ['seed', 'a-b', 'x', '-a', 'a--b'];
  if (k === 'pages') return ['/x', '/a/{id}', '/', 'x'];
  if (k === 'token') return ['a'.repeat(64), '0'.repeat(43)];
  if (k === 'fields') return ['siteName,logoUrl', 'passwordHash', 'id,updatedBy', ',', 'siteName'];
  if (k === 'withdrawalautoapprovelimit') return ['0', '999999999999999999', '1'];
  if (k === 'q') return ['%', '_', "' or 1=1 --", '\\', 'root', 'a b'];
  if (k === 'action') return ['delete', 'status', 'create'];
  return [];
}

// ── From JSON Schema to arbitraries ──────────────────────────────────────────

function patternString(pattern: string): fc.Arbitrary<string> | null {
  for (const flags of ['', 'u']) {
    try {
      const re = new RegExp(pattern, flags);
      const arb = fc.stringMatching(re);
      fc.sample(arb, 1);
      return arb;
    } catch {
      /* try the next form */
    }
  }
  return null;
}

function validString(s: JsonSchema, key: string, h: Hints): fc.Arbitrary<string> {
  const min = s.minLength ?? 0;
  const max = Math.max(min, Math.min(s.maxLength ?? 40, 60));
  const arbs: fc.WeightedArbitrary<string>[] = [
    { arbitrary: fc.string({ minLength: min, maxLength: max }), weight: 3 },
    { arbitrary: fc.string({ unit: 'grapheme', minLength: min, maxLength: max }), weight: 1 },
  ];
  // At the edge: exactly maxLength, and one past it.
  if (s.maxLength !== undefined && s.maxLength <= 20_000) {
    arbs.push({ arbitrary: fc.constantFrom(s.maxLength, s.maxLength + 1).map((n) => 'x'.repeat(n)), weight: 1 });
  }
  if (s.format === 'email') arbs.push({ arbitrary: fc.emailAddress(), weight: 3 });
  if (s.pattern) {
    const p = patternString(s.pattern);
    if (p) arbs.push({ arbitrary: p, weight: 6 });
  }
  const hints = hintsFor(key, h);
  if (hints.length) arbs.push({ arbitrary: fc.constantFrom(...hints), weight: 6 });
  return fc.oneof(...arbs);
}

function validNumber(s: JsonSchema, integer: boolean): fc.Arbitrary<number> {
  const min = s.minimum ?? (s.exclusiveMinimum !== undefined ? s.exclusiveMinimum + 1 : -1_000_000);
  const max = s.maximum ?? (s.exclusiveMaximum !== undefined ? s.exclusiveMaximum - 1 : 1_000_000);
  const lo = Math.max(min, -Number.MAX_SAFE_INTEGER);
  const hi = Math.min(max, Number.MAX_SAFE_INTEGER);
  const edges = [lo, hi, lo - 1, hi + 1, 0].filter((n) => Number.isSafeInteger(n));
  return fc.oneof(
    { arbitrary: integer ? fc.integer({ min: lo, max: hi }) : fc.double({ min: lo, max: hi, noNaN: true }), weight: 4 },
    { arbitrary: fc.constantFrom(...edges), weight: 1 },
  );
}

/** Values of the right shape (constraints honoured roughly: edges and hints included). */
export function validValue(schema: JsonSchema, root: JsonSchema, key: string, h: Hints, depth = 0): fc.Arbitrary<Val> {
  const s = resolve(schema, root);
  if (s.const !== undefined) return fc.constant(s.const as Val);
  if (s.enum?.length) return fc.constantFrom(...(s.enum as Val[]));
  const alts = s.anyOf ?? s.oneOf;
  if (alts?.length) return fc.oneof(...alts.map((a) => validValue(a, root, key, h, depth)));
  if (s.allOf?.length) return validValue(s.allOf[0]!, root, key, h, depth);
  const types = typesOf(s);
  if (types.length === 0) return depth > 2 ? fc.constantFrom<Val>(null, 'x', 1) : hostileValue(2);
  return fc.oneof(
    ...types.map((t): fc.Arbitrary<Val> => {
      switch (t) {
        case 'string':
          return validString(s, key, h);
        case 'integer':
          return validNumber(s, true);
        case 'number':
          return validNumber(s, false);
        case 'boolean':
          return fc.boolean();
        case 'null':
          return fc.constant(null);
        case 'array': {
          const item = Array.isArray(s.items) ? s.items[0] : s.items;
          const itemArb = item ? valueArb(item, root, key, h, depth + 1) : hostileValue(2);
          return fc.array(itemArb, { minLength: s.minItems ?? 0, maxLength: Math.max(s.minItems ?? 0, Math.min(s.maxItems ?? 4, 4)) }).map((a): Val => a);
        }
        case 'object':
          return objectArb(s, root, h, depth + 1);
        default:
          return hostileValue(2);
      }
    }),
  );
}

/** A wrong-type twin of a valid value: `"5"` for 5, `1` for true, `[x]` for x, `{}` for a string… */
function coercionBait(schema: JsonSchema, root: JsonSchema, key: string, h: Hints): fc.Arbitrary<Val> {
  return validValue(schema, root, key, h, 3).map((v): Val => {
    if (typeof v === 'number') return String(v);
    if (typeof v === 'boolean') return v ? 1 : 'false';
    if (typeof v === 'string') return /^-?\d+(\.\d+)?$/.test(v) ? Number(v) : v === '' ? null : [v];
    if (v === null) return 'null';
    if (Array.isArray(v)) return v.length ? v[0]! : new Obj([]);
    return [v];
  });
}

/** A field's value: mostly right, sometimes hostile. */
export function valueArb(schema: JsonSchema, root: JsonSchema, key: string, h: Hints, depth = 0): fc.Arbitrary<Val> {
  return fc.oneof(
    { arbitrary: validValue(schema, root, key, h, depth), weight: 8 },
    { arbitrary: coercionBait(schema, root, key, h), weight: 1 },
    { arbitrary: hostileValue(Math.max(depth, 1)), weight: 2 },
  );
}

const OMIT = Symbol('omit');

/** An object: required keys nearly always, optional ones half the time, now and then extra and prototype keys. */
export function objectArb(schema: JsonSchema, root: JsonSchema, h: Hints, depth = 0): fc.Arbitrary<Obj> {
  const s = resolve(schema, root);
  const required = new Set(s.required ?? []);
  const fields = Object.entries(s.properties ?? {}).map(([k, sub]) =>
    fc.oneof(
      { arbitrary: fc.constant<typeof OMIT>(OMIT), weight: required.has(k) ? 1 : 6 },
      { arbitrary: valueArb(sub, root, k, h, depth), weight: 12 },
    ).map((v): [string, Val][] => (v === OMIT ? [] : [[k, v]])),
  );
  const extraValue = typeof s.additionalProperties === 'object' ? valueArb(s.additionalProperties, root, 'extra', h, depth + 1) : hostileValue(2);
  const extras = fc.oneof(
    { arbitrary: fc.constant<[string, Val][]>([]), weight: 8 },
    { arbitrary: fc.array(fc.tuple(fc.oneof(oddKey, fc.string({ minLength: 1, maxLength: 8 })), extraValue), { minLength: 1, maxLength: 3 }), weight: 2 },
  );
  return fc.tuple(fc.tuple(...fields), extras, fc.boolean()).map(([parts, extra, extraFirst]) => {
    const own = parts.flat();
    return new Obj(extraFirst ? [...extra, ...own] : [...own, ...extra]);
  });
}

// ── Bodies ───────────────────────────────────────────────────────────────────

const TOP_LEVEL_ODDITIES = [
  '', ' ', '{', '{"a":', '}', 'null', '[]', '[{}]', '"x"', '0', '-0', 'true', '{"a":1}{"b":2}', '{"a":1,}', "{'a':1}", '{a:1}', 'NaN', '\u0000', '{"a":"\u0000"}',
  '\ufeff{}', '{"__proto__":{"isSuper":true}}', '{"constructor":{"prototype":{"polluted":true}}}', '{"a":1,"a":2}', '{"\\u0000":1}', '{"a":"\\ud800"}',
];
/** Past the server's 1 MiB body limit. */
const OVERSIZED = `{"x":"${'a'.repeat(1024 * 1024 + 16)}"}`;

/** A JSON body (as text) for a body schema; null schema: any object. */
export function bodyArb(schema: JsonSchema | null, h: Hints): fc.Arbitrary<string> {
  const root = schema ?? {};
  const shaped = schema && typesOf(resolve(schema, root)).includes('object') ? objectArb(schema, root, h) : fc.array(fc.tuple(oddKey, hostileValue(1)), { maxLength: 3 }).map((e) => new Obj(e));
  return fc.oneof(
    { arbitrary: shaped.map(toJson), weight: 70 },
    { arbitrary: fc.constantFrom(...TOP_LEVEL_ODDITIES, ...DEEP.map(toJson)), weight: 10 },
    { arbitrary: hostileValue(0).map(toJson), weight: 5 },
    { arbitrary: fc.constant(OVERSIZED), weight: 1 },
  );
}

// ── Query strings ────────────────────────────────────────────────────────────

/** A query value: text to percent-encode, or an already-encoded (possibly malformed) escape. */
export type QueryValue = string | Raw;

const RAW_ESCAPES = ['%', '%zz', '%00', '%C0%AF', '%ED%A0%80', '%FF', '+', '%2B', '%26x%3D1', '%E2%80%AE', '%F0%9F%98%80'].map((t) => new Raw(t));

/** Percent-encoding of any UTF-16 string, lone surrogates included (as their 3-byte forms). */
export function encodeAny(text: string): string {
  try {
    return encodeURIComponent(text);
  } catch {
    let out = '';
    for (const ch of text) {
      const c = ch.codePointAt(0)!;
      if (c >= 0xd800 && c <= 0xdfff) out += [0xe0 | (c >> 12), 0x80 | ((c >> 6) & 0x3f), 0x80 | (c & 0x3f)].map((b) => `%${b.toString(16).toUpperCase()}`).join('');
      else out += encodeURIComponent(ch);
    }
    return out;
  }
}

function queryValue(schema: JsonSchema, root: JsonSchema, key: string, h: Hints): fc.Arbitrary<QueryValue> {
  const valid = validValue(schema, root, key, h, 3).map((v): QueryValue => (typeof v === 'string' ? v : v instanceof Raw ? v.text : typeof v === 'object' && v !== null ? toJson(v) : String(v)));
  return fc.oneof(
    { arbitrary: valid, weight: 8 },
    { arbitrary: hostileString.filter((x) => x.length <= 20_000), weight: 2 },
    { arbitrary: fc.constantFrom(...RAW_ESCAPES), weight: 1 },
  );
}

/** Key/value pairs from a querystring schema (duplicates and odd keys included), as `a=b&c=d`. */
export function queryArb(schema: JsonSchema | null, h: Hints): fc.Arbitrary<string> {
  const root = schema ?? {};
  const s = schema ? resolve(schema, root) : {};
  const props = Object.entries(s.properties ?? {});
  const fields = props.map(([k, sub]) =>
    fc.oneof(
      { arbitrary: fc.constant<typeof OMIT>(OMIT), weight: 4 },
      { arbitrary: queryValue(sub, root, k, h), weight: 5 },
    ).map((v): [string, QueryValue][] => (v === OMIT ? [] : [[k, v]])),
  );
  const knownKeys = props.map(([k]) => k);
  const extraKey = fc.oneof(oddKey, ...(knownKeys.length ? [fc.constantFrom(...knownKeys), fc.constantFrom(...knownKeys).map((k) => `${k}[]`)] : []), fc.constantFrom('a[b]', 'x[__proto__]', '__proto__[x]'));
  const extras = fc.oneof(
    { arbitrary: fc.constant<[string, QueryValue][]>([]), weight: 6 },
    { arbitrary: fc.array(fc.tuple(extraKey, fc.oneof(hostileString.filter((x) => x.length <= 2000), fc.constantFrom(...RAW_ESCAPES), fc.constant(''))), { minLength: 1, maxLength: 3 }), weight: 2 },
  );
  return fc.tuple(fc.tuple(...fields), extras).map(([parts, extra]) =>
    [...parts.flat(), ...extra].map(([k, v]) => `${encodeAny(k)}=${v instanceof Raw ? v.text : encodeAny(v)}`).join('&'),
  );
}

// ── Path parameters ──────────────────────────────────────────────────────────

/**
 * Ids as they appear in a URL (already encoded). No dot segments: inject resolves `%2e%2e` like a
 * browser would (the path-spelling test sends those over a real socket).
 */
export const ID_POOL = [
  '1', '2', '999999', '0', '-1', 'abc', '1e3', '%00', '1234567890123456789', '9223372036854775808', '999999999999999999', '01', '+1', '1.0', '0x1', '%201', '%09',
  '%F0%9F%98%80', '1%2C2', 'null', '%E2%80%AE1',
];
