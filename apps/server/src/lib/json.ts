import JSON5 from 'json5';

/**
 * Whether this runtime's `JSON.parse` can misread an escaped object key. V8 13.6 (Node 24, up to
 * at least 24.21) reuses a key it has seen for a different escaped key with the same first bytes:
 * after `{"h": [], "\\": 0}` has been parsed, the key `"\r"` of `{"h": 1, "\r": 2}` reads as `"\\"`
 * (nodejs/node#63785, V8 issue 521080746). Checked once, on the runtime itself.
 */
export const jsonParseMisreadsKeys: boolean = (() => {
  // The check leaves its own key behind in V8's cache: a first key no other object starts with.
  JSON.parse('{"pitboss:json-key-check": [], "\\\\": 0}');
  return Object.keys(JSON.parse('{"pitboss:json-key-check": 1, "\\r": 2}') as object)[1] !== '\r';
})();

/**
 * A JSON text's value, read without `JSON.parse` when the text holds a backslash (the only kind
 * that can hold an escaped key): JSON5's parser, written in JavaScript, gives the same value for
 * any JSON text, own `__proto__` members included. It reads a superset of JSON (comments, trailing
 * commas); the texts read here come from the database, which writes strict JSON.
 */
export function readJsonExact(text: string): unknown {
  return text.includes('\\') ? JSON5.parse(text) : JSON.parse(text);
}

/** `JSON.parse`, or `readJsonExact` on a runtime whose `JSON.parse` misreads escaped keys. */
export const parseJson: (text: string) => unknown = jsonParseMisreadsKeys ? readJsonExact : (text) => JSON.parse(text);
