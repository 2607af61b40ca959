import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const resourcesDir = path.resolve(import.meta.dirname, '../apps/web/src/resources');

function sources(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = path.join(dir, e.name);
    return e.isDirectory() ? sources(p) : /\.tsx?$/.test(e.name) ? [p] : [];
  });
}

describe('the resource mechanism on the web', () => {
  it('imports no module: modules register their field types, tabs and context (resources/extensions.ts)', () => {
    const offenders = sources(resourcesDir).flatMap((file) => {
      const text = fs.readFileSync(file, 'utf8');
      return [...text.matchAll(/(?:from\s+|import\()\s*['"]([^'"]+)['"]/g)]
        .map((m) => m[1]!)
        .filter((spec) => spec.startsWith('.') && path.resolve(path.dirname(file), spec).startsWith(path.resolve(resourcesDir, '../modules')))
        .map((spec) => `${path.relative(resourcesDir, file)} → ${spec}`);
    });
    expect(offenders).toEqual([]);
  });
});
