import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { CONFIG_VARIABLES } from '../apps/server/src/config.js';

/**
 * The README and docs/ stay true to the tree: their links and the repository paths they name
 * exist, every `npm` command in their shell blocks is a script of the package it runs in, and the
 * README's configuration table lists exactly what the server reads.
 */
const root = path.resolve(import.meta.dirname, '..');
const pages = ['README.md', ...fs.readdirSync(path.join(root, 'docs')).filter((f) => f.endsWith('.md')).map((f) => `docs/${f}`)];
const read = (file: string) => fs.readFileSync(path.join(root, file), 'utf8');
/** GitHub's anchor of a heading: lower case, punctuation dropped, spaces to dashes. */
const slug = (heading: string) => heading.trim().toLowerCase().replace(/[^\p{L}\p{N}\s_-]/gu, '').replace(/\s/g, '-');
const anchorsOf = (file: string) => new Set([...read(file).matchAll(/^#{1,6} (.+)$/gm)].map((m) => slug(m[1]!.replace(/`/g, ''))));
/** Prose, not code: fenced blocks left out. */
const prose = (text: string) => text.replace(/```[\s\S]*?```/g, '');

describe('the docs', () => {
  it('link only to files and headings that exist', () => {
    const broken: string[] = [];
    for (const page of pages) {
      for (const [, target] of prose(read(page)).matchAll(/\]\(([^)\s]+)\)/g)) {
        if (/^[a-z]+:/.test(target!)) continue;
        const [file, anchor] = target!.split('#') as [string, string | undefined];
        const resolved = file ? path.normalize(path.join(path.dirname(page), file)) : page;
        if (!fs.existsSync(path.join(root, resolved))) broken.push(`${page}: ${target} (no file)`);
        else if (anchor && resolved.endsWith('.md') && !anchorsOf(resolved).has(anchor)) broken.push(`${page}: ${target} (no heading)`);
      }
    }
    expect(broken).toEqual([]);
  });

  it('name repository paths that exist', () => {
    const missing: string[] = [];
    for (const page of pages) {
      for (const [, quoted] of prose(read(page)).matchAll(/`([^`\s]+)`/g)) {
        const p = quoted!.replace(/:\d+(-\d+)?$/, '').replace(/[.,;]$/, '');
        // Paths of the tree only: not placeholders (<name>), patterns (*, {id}) or URLs.
        if (!/^(apps|packages|scripts|docs|e2e|bench|test|\.ci)\//.test(p) || /[<>*{}]|\.\.\./.test(p) || /(^|\/)dist(\/|$)/.test(p)) continue;
        if (!fs.existsSync(path.join(root, p))) missing.push(`${page}: ${p}`);
      }
    }
    expect(missing).toEqual([]);
  });

  it("run only npm scripts that exist, in their shell blocks", () => {
    const scriptsOf = (dir: string) => Object.keys((JSON.parse(read(path.join(dir, 'package.json'))) as { scripts?: Record<string, string> }).scripts ?? {});
    // npm's own commands; `npm test` and `npm start` run scripts like any other.
    const npmCommands = new Set(['install', 'ci', 'exec', 'pack']);
    const unknown: string[] = [];
    for (const page of pages) {
      for (const [, block] of read(page).matchAll(/```(?:sh|bash|shell)\n([\s\S]*?)```/g)) {
        for (const [, flags, script] of block!.matchAll(/\bnpm (?:run )?((?:-w \S+ )?)([a-z][\w:-]*)/g)) {
          const dir = flags?.trim() ? flags.trim().slice(3) : '.';
          if (!npmCommands.has(script!) && !scriptsOf(dir).includes(script!)) unknown.push(`${page}: npm ${flags ?? ''}${script}`);
        }
      }
    }
    expect(unknown).toEqual([]);
  });

  it("list in the README's configuration table exactly the variables the server reads", () => {
    const readme = read('README.md');
    const table = readme.slice(readme.indexOf('## Configuration'));
    const listed = new Set([...table.matchAll(/^\| `([A-Z][A-Z0-9_]+)` \|/gm)].map((m) => m[1]!));
    expect(CONFIG_VARIABLES.filter((v) => !listed.has(v))).toEqual([]);
    // And nothing listed is read nowhere: each is named in the server's or the web build's sources.
    const sources = ['apps/server/src', 'apps/web/vite.config.ts', 'apps/web/src/lib'].map((p) => path.join(root, p));
    const text = sources.map(function all(p): string {
      return fs.statSync(p).isDirectory() ? fs.readdirSync(p).map((f) => all(path.join(p, f))).join('\n') : /\.(ts|tsx|mjs)$/.test(p) ? fs.readFileSync(p, 'utf8') : '';
    }).join('\n');
    expect([...listed].filter((v) => !new RegExp(`\\b${v}\\b`).test(text))).toEqual([]);
  });
});
