// node-postgres's own value preparation (what it sends for a bound parameter), used where a
// parameter must be written as a literal (COPY takes none). Not in @types/pg.
declare module 'pg/lib/utils.js' {
  const utils: { prepareValue(value: unknown): unknown };
  export default utils;
}
