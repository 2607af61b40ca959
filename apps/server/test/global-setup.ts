import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import type { TestProject } from 'vitest/node';
import { openDatabase } from '../src/db/client.js';

declare module 'vitest' {
  export interface ProvidedContext {
    /** A PGlite data folder with every migration applied (a `dumpDataDir` tarball's path). */
    pgliteTemplate: string;
    /** With TEST_DATABASE_URL: a PostgreSQL database with every migration applied, to copy (`CREATE DATABASE … TEMPLATE`). */
    postgresTemplate: string;
  }
}

/**
 * Migrates once per run: each API test server then starts from a copy (PGlite's data folder, a
 * PostgreSQL template database) instead of running initdb and every migration again.
 */
export async function setup(project: TestProject): Promise<() => Promise<void>> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'pitboss-test-template-'));
  const file = path.join(dir, 'pglite.tar');
  const pglite = await openDatabase({ dataDir: 'memory://' });
  fs.writeFileSync(file, Buffer.from(await (await pglite.dumpDataDir!()).arrayBuffer()));
  await pglite.close();
  project.provide('pgliteTemplate', file);

  const base = process.env.TEST_DATABASE_URL;
  const name = base ? `pitboss_tpl_${randomBytes(6).toString('hex')}` : '';
  const onServer = async (statement: string) => {
    const admin = new pg.Client({ connectionString: base });
    await admin.connect();
    try {
      await admin.query(statement);
    } finally {
      await admin.end();
    }
  };
  if (base) {
    await onServer(`create database ${name}`);
    const u = new URL(base);
    u.pathname = `/${name}`;
    // Migrated, then closed: a template may have no open connection while it is copied.
    await (await openDatabase({ databaseUrl: u.toString() })).close();
  }
  project.provide('postgresTemplate', name);
  return async () => {
    if (base) await onServer(`drop database if exists ${name} with (force)`);
    fs.rmSync(dir, { recursive: true, force: true });
  };
}
