// Benchmark dispatcher: `npm run bench` runs every section, `npm run bench -- <name>` runs one.
// To add a section, add one line to `sections` (modules are imported lazily, so a section
// only loads its own code).
// The engine runs last: its final line is the summary `engine: <N> commands/s, <R>x nodejs-order-book, <S>% of bare`.
const sections: Record<string, () => Promise<void>> = {
  app: async () => (await import('./app.js')).benchApp(),
  lists: async () => (await import('./lists.js')).benchLists(),
  search: async () => (await import('./search.js')).benchSearch(),
  settle: async () => (await import('./settle.js')).benchSettle(),
  orders: async () => (await import('./orders.js')).benchOrders(),
  engine: async () => (await import('./engine.js')).benchEngine(),
};

const wanted = process.argv.slice(2).filter((a) => !a.startsWith('-'));
const names = wanted.length > 0 ? wanted : Object.keys(sections);
for (const name of names) {
  const run = sections[name];
  if (run === undefined) {
    console.error(`unknown bench section "${name}"; known: ${Object.keys(sections).join(', ')}`);
    process.exit(2);
  }
  await run();
}
