import { randomBytes } from 'node:crypto';
import pg from 'pg';

/** A fresh PostgreSQL database on the server at `base` for one bench run, and how to drop it. */
export async function scratchPostgres(base: string): Promise<{ databaseUrl: string; drop: () => Promise<void> }> {
  const name = `pitboss_bench_${randomBytes(4).toString('hex')}`;
  const c = new pg.Client({ connectionString: base });
  await c.connect();
  await c.query(`create database ${name}`);
  await c.end();
  const u = new URL(base);
  u.pathname = `/${name}`;
  return {
    databaseUrl: u.toString(),
    drop: async () => {
      if (process.env.BENCH_KEEP_DATABASE) {
        console.log(`kept the scratch database ${name} (BENCH_KEEP_DATABASE)`);
        return;
      }
      const d = new pg.Client({ connectionString: base });
      await d.connect();
      await d.query(`drop database if exists ${name} with (force)`);
      await d.end();
    },
  };
}
