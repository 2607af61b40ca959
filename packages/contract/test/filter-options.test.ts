import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { allEndpoints, auditLogResource, countryOptions, MAIL_TEMPLATES, mailOutboxResource, columnValueLabel, fieldOptions, filterOptions, isCountryCode, listQuerySchema, offlineStoreCreate, offlineStoresResource, RESOURCES, resourceNameOptions, subModulesResource, usersResource } from '../src/index.js';

const resourceFilter = auditLogResource.filters.find((f) => f.key === 'resource')!;

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = join(dir, e.name);
    if (e.isDirectory()) return sourceFiles(p);
    return e.name.endsWith('.ts') && !e.name.endsWith('.test.ts') ? [p] : [];
  });
}

describe('declared filter options', () => {
  it("offers the audit log's resources by their declarations' titles, valued by API name", () => {
    const options = filterOptions(resourceFilter)!;
    expect(options).toContainEqual({ value: 'sub-modules', label: 'Sub modules' });
    expect(options).toContainEqual({ value: 'site-settings', label: 'Site settings' });
    expect(options).toContainEqual({ value: 'admins', label: 'Super admins' });
    for (const r of Object.values(RESOURCES)) expect(options).toContainEqual({ value: r.name, label: r.plural });
    expect(new Set(options.map((o) => o.value)).size).toBe(options.length);
    expect(options.map((o) => o.label)).toEqual([...options.map((o) => o.label)].sort((a, b) => a.localeCompare(b)));
  });

  it('labels every resource name the server writes to the audit log', () => {
    const known = new Set(resourceNameOptions().map((o) => o.value));
    const written = new Set<string>();
    for (const file of sourceFiles(join(import.meta.dirname, '../../../apps/server/src'))) {
      for (const m of readFileSync(file, 'utf8').matchAll(/resource: '([A-Za-z0-9-]+)'/g)) written.add(m[1]!);
      for (const m of readFileSync(file, 'utf8').matchAll(/\? '([a-z-]+)' : '([a-z-]+)'\)/g)) if (file.includes('two-factor') || file.includes('auth')) written.add(m[1]!).add(m[2]!);
    }
    expect(written.size).toBeGreaterThan(10);
    expect([...written].filter((r) => !known.has(r))).toEqual([]);
    // A refused request is filed under its path's first segment: each signed-in area has a label.
    const areas = new Set(allEndpoints().filter((e) => e.access.kind !== 'public').map((e) => /^\/api\/admin\/([^/?]+)/.exec(e.path)?.[1]).filter((s): s is string => !!s));
    expect([...areas].filter((a) => !known.has(a))).toEqual([]);
  });

  it('shows the label in the column of the same key, and keeps an undeclared value as it is', () => {
    const column = auditLogResource.columns.find((c) => c.key === 'resource')!;
    expect(columnValueLabel(auditLogResource, column, 'faqs')).toBe('FAQ');
    expect(columnValueLabel(auditLogResource, column, 'no-such-thing')).toBeUndefined();
    const action = auditLogResource.columns.find((c) => c.key === 'action')!;
    expect(columnValueLabel(auditLogResource, action, 'two_factor_enable')).toBe('2FA turned on');
  });

  it('takes any resource name in the query (older or refused entries), but only a declared value for listed options', () => {
    const schema = listQuerySchema(auditLogResource);
    expect(schema.parse({ resource: 'sub-modules' }).resource).toBe('sub-modules');
    expect(schema.parse({ resource: 'whatever' }).resource).toBe('whatever');
    const spec = { ...subModulesResource, filters: [{ key: 'name', label: 'Name', type: 'equals' as const, options: [{ value: 'a', label: 'A' }] }] };
    expect(listQuerySchema(spec).safeParse({ name: 'a' }).success).toBe(true);
    expect(listQuerySchema(spec).safeParse({ name: 'b' }).success).toBe(false);
  });

  it("picks an offline store's country by name, \"France (FR)\", valued by its ISO code", () => {
    const filter = offlineStoresResource.filters.find((f) => f.key === 'country')!;
    const options = filterOptions(filter)!;
    expect(options).toContainEqual({ value: 'FR', label: 'France (FR)' });
    expect(options).toContainEqual({ value: 'US', label: 'United States (US)' });
    expect(options).toContainEqual({ value: 'CI', label: 'Côte d’Ivoire (CI)' });
    // Codes a store may hold (its schema's isCountryCode), each country once, by name: no former code
    // beside the current one (FX, UK), no grouping or test region.
    expect(options.every((o) => isCountryCode(o.value))).toBe(true);
    expect(options.length).toBeGreaterThanOrEqual(249);
    expect(new Set(options.map((o) => o.value)).size).toBe(options.length);
    expect(new Set(options.map((o) => o.label.replace(/ \(..\)$/, ''))).size).toBe(options.length);
    expect(options.map((o) => o.label)).toEqual([...options.map((o) => o.label)].sort((a, b) => a.localeCompare(b, 'en')));
    for (const code of ['ZZ', 'FX', 'UK', 'XK', 'DD', 'EU', 'UN', 'XA']) expect(options.some((o) => o.value === code), code).toBe(false);
    // The query still takes the code in any case: the server compares without regard to case.
    expect(listQuerySchema(offlineStoresResource).parse({ country: 'fr' }).country).toBe('fr');
  });

  it("picks a user's country by name too, the query taking the code", () => {
    const filter = usersResource.filters.find((f) => f.key === 'country')!;
    expect(filterOptions(filter)).toBe(countryOptions());
    expect(listQuerySchema(usersResource).parse({ country: 'FR' }).country).toBe('FR');
  });

  it("offers a form field's declared countries as a select, the schema still checking the code", () => {
    const field = offlineStoresResource.form!.find((f) => f.key === 'country')!;
    expect(field.type).toBe('select');
    expect(fieldOptions(field)).toBe(countryOptions());
    expect(fieldOptions(field)).toContainEqual({ value: 'FR', label: 'France (FR)' });
    // Plain declared choices as they are; none for a field without.
    const status = offlineStoresResource.form!.find((f) => f.key === 'status')!;
    expect(fieldOptions(status)).toBe(status.options);
    expect(fieldOptions(offlineStoresResource.form!.find((f) => f.key === 'name')!)).toBeNull();
    // Every choice is a code the store's schema takes; the schema refuses the rest as before.
    const store = { name: 'Le Comptoir', address: '1 rue de Rivoli', city: 'Paris', latitude: '48.86', longitude: '2.35', contact: 'contact@comptoir.example' };
    for (const o of fieldOptions(field)!) expect(offlineStoreCreate.safeParse({ ...store, country: o.value }).success, o.value).toBe(true);
    expect(offlineStoreCreate.safeParse({ ...store, country: 'ZZ' }).success).toBe(false);
    expect(offlineStoreCreate.safeParse({ ...store, country: 'fr' }).data?.country).toBe('FR');
  });

  it("picks the sub-modules' module by name (a reference picker), valued by id", () => {
    const module = subModulesResource.filters.find((f) => f.key === 'moduleId')!;
    expect(module.type === 'equals' && module.reference).toEqual({ resource: 'modules', labelKey: 'name' });
  });

  it("picks the mail outbox's template by name, and refuses a key that is not a template", () => {
    const filter = mailOutboxResource.filters.find((f) => f.key === 'templateKey')!;
    expect(filterOptions(filter)).toContainEqual({ value: 'forgot_password', label: MAIL_TEMPLATES.forgot_password.name });
    const column = mailOutboxResource.columns.find((c) => c.key === 'templateKey')!;
    expect(columnValueLabel(mailOutboxResource, column, 'forgot_password')).toBe('Forgot password');
    expect(listQuerySchema(mailOutboxResource).safeParse({ templateKey: 'no_such_template' }).success).toBe(false);
  });
});

