import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { TestProject } from 'vitest/node';
import { openDatabase } from '../apps/server/src/db/client.js';

declare module 'vitest' {
  export interface ProvidedContext {
    /** A PGlite data folder with every migration applied, copied into each harness's DATA_DIR. */
    e2eDataTemplate: string;
  }
}

/** Migrates once per run: each built server of the browser tests starts on a copy, without initdb and migrations. */
export async function setup(project: TestProject): Promise<() => void> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'pitboss-e2e-template-'));
  const dataDir = path.join(dir, 'pglite');
  await (await openDatabase({ dataDir })).close();
  project.provide('e2eDataTemplate', dataDir);
  return () => fs.rmSync(dir, { recursive: true, force: true });
}
