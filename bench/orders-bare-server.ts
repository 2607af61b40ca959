// The orders bench's bare reference (bench/orders.ts): what this machine allows for durable order
// intake over HTTP with nothing of the product in the way. A plain `node:http` server takes the same
// requests as the platform API (bearer key and Idempotency-Key checked, JSON body parsed), and answers
// each only once its order row is committed on PostgreSQL, with the same group commit as the real
// path (requests gather while a group's transaction runs; one group at a time, as one market's book
// allows): one multi-row INSERT of the group's orders (a primary key and a unique key index) and the
// commit. No book, no balances, no ledger, no positions, no audit, no framework.
//
// Started by bench/orders.ts as a child process: DATABASE_URL, PORT and PLATFORM_API_KEY in its
// environment; prints "Ready in" when it listens.
import http from 'node:http';
import pg from 'pg';

const t0 = performance.now();
const key = `Bearer ${process.env.PLATFORM_API_KEY}`;
const pool = new pg.Pool({ connectionString: process.env.DATABASE_URL, max: 2 });
await pool.query(`create table if not exists bare_orders (
  id bigint generated always as identity primary key,
  idempotency_key text not null unique,
  user_id bigint not null, market text not null, outcome text not null, side text not null,
  price int not null, quantity int not null, time_in_force text not null,
  created_at timestamptz not null default now())`);

interface Pending {
  key: string;
  body: { userId: string; market: string; outcome: string; side: string; price: number; quantity: number; timeInForce: string };
  res: http.ServerResponse;
}
let queue: Pending[] = [];
let running = false;

function answer(res: http.ServerResponse, status: number, json: string): void {
  res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', 'content-length': Buffer.byteLength(json) });
  res.end(json);
}

async function drain(): Promise<void> {
  while (queue.length) {
    const group = queue;
    queue = [];
    const client = await pool.connect();
    try {
      await client.query('begin');
      const col = <K extends keyof Pending['body']>(k: K) => group.map((p) => p.body[k]);
      const { rows } = await client.query<{ id: string }>(
        `insert into bare_orders (idempotency_key, user_id, market, outcome, side, price, quantity, time_in_force)
         select * from unnest($1::text[], $2::bigint[], $3::text[], $4::text[], $5::text[], $6::int[], $7::int[], $8::text[]) returning id`,
        [group.map((p) => p.key), col('userId'), col('market'), col('outcome'), col('side'), col('price'), col('quantity'), col('timeInForce')],
      );
      await client.query('commit');
      for (const [i, p] of group.entries()) answer(p.res, 200, JSON.stringify({ result: { _id: rows[i]!.id, status: 'open' } }));
    } catch (err) {
      await client.query('rollback').catch(() => undefined);
      for (const p of group) answer(p.res, 500, JSON.stringify({ message: String(err) }));
    } finally {
      client.release();
    }
  }
  running = false;
}

const server = http.createServer((req, res) => {
  if (req.method !== 'POST' || req.url !== '/api/platform/v1/orders') return answer(res, 404, '{"message":"Not found"}');
  if (req.headers.authorization !== key) return answer(res, 401, '{"message":"Unauthorized"}');
  const idem = req.headers['idempotency-key'];
  if (typeof idem !== 'string' || idem.length === 0) return answer(res, 400, '{"message":"Idempotency-Key required"}');
  const chunks: Buffer[] = [];
  req.on('data', (c: Buffer) => chunks.push(c));
  req.on('end', () => {
    let body: Pending['body'];
    try {
      body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as Pending['body'];
    } catch {
      return answer(res, 400, '{"message":"Bad JSON"}');
    }
    queue.push({ key: idem, body, res });
    if (!running) {
      running = true;
      setImmediate(() => void drain());
    }
  });
});
server.keepAliveTimeout = 60_000;
server.listen(Number(process.env.PORT), '127.0.0.1', () => {
  console.log(`Ready in ${(performance.now() - t0).toFixed(0)} ms`);
});
process.on('SIGTERM', () => {
  server.close();
  server.closeAllConnections();
  void pool.end().then(() => process.exit(0));
});
