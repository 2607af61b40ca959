import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { resourceSpec, singleSpec, type ResourceSpec, type SingleSpec } from '../src/index.js';

/**
 * Declarations are typed by their record schema. The `@ts-expect-error` lines are the test: if a
 * wrong key stopped being an error, `npm run typecheck` (which covers this folder) would fail on the
 * unused directive.
 */
const record = z.object({ _id: z.string(), name: z.string(), status: z.enum(['active', 'inactive']), createdAt: z.string() });
const base = {
  name: 'probes', label: 'Probe', plural: 'Probes', restriction: 'FAQ', pages: { list: '/faq' }, filters: [], deleteMode: 'none',
} as const;

describe('typed declarations', () => {
  it('accept keys of the record and refuse others at compile time', () => {
    const ok = resourceSpec(record, { ...base, titleField: 'name', defaultSort: '-createdAt', columns: [{ key: 'name', label: 'Name', type: 'text' }] });
    expect(ok.record).toBe(record);
    // @ts-expect-error: a column that is not a field of the record
    resourceSpec(record, { ...base, titleField: 'name', defaultSort: 'name', columns: [{ key: 'nmae', label: 'Name', type: 'text' }] });
    // @ts-expect-error: a sort on a field that does not exist
    resourceSpec(record, { ...base, titleField: 'name', defaultSort: '-updatedAt', columns: [] });
    // @ts-expect-error: a filter on a field that does not exist
    resourceSpec(record, { ...base, titleField: 'name', defaultSort: 'name', columns: [], filters: [{ key: 'colour', label: 'Colour', type: 'equals' }] });
    // @ts-expect-error: a title from a field that does not exist
    resourceSpec(record, { ...base, titleField: 'title', defaultSort: 'name', columns: [] });
    const moduleRef = { resource: 'modules', labelKey: 'name' };
    resourceSpec(record, { ...base, titleField: 'name', defaultSort: 'name', columns: [], form: [{ key: 'name', label: 'Module', type: 'reference', reference: moduleRef }] });
    // @ts-expect-error: a reference field must name its target
    resourceSpec(record, { ...base, titleField: 'name', defaultSort: 'name', columns: [], form: [{ key: 'name', label: 'Module', type: 'reference' }] });
    // @ts-expect-error: only a reference field names a target
    resourceSpec(record, { ...base, titleField: 'name', defaultSort: 'name', columns: [], form: [{ key: 'name', label: 'Module', type: 'text', reference: moduleRef }] });
    // @ts-expect-error: only an equals filter is a reference
    resourceSpec(record, { ...base, titleField: 'name', defaultSort: 'name', columns: [], filters: [{ key: 'createdAt', label: 'Created', type: 'dateRange', reference: moduleRef }] });
    // Any typed declaration is a ResourceSpec.
    const any: ResourceSpec = ok;
    expect(any.name).toBe('probes');
  });

  it('type single-record forms by the record, nested fields included', () => {
    const settings = z.object({ _id: z.string(), siteName: z.string(), links: z.object({ x: z.string() }) });
    const single = { name: 'probe-settings', label: 'Probe settings', restriction: 'Site Setting', page: '/site-setting', update: settings.partial() } as const;
    const ok = singleSpec(settings, { ...single, sections: [{ title: 'General', fields: [{ key: 'siteName', label: 'Name', type: 'text' }, { key: 'links.x', label: 'X', type: 'text' }] }] });
    // @ts-expect-error: a field that is not in the record
    singleSpec(settings, { ...single, sections: [{ title: 'General', fields: [{ key: 'siteNmae', label: 'Name', type: 'text' }] }] });
    // @ts-expect-error: a nested field that is not in the nested object
    singleSpec(settings, { ...single, sections: [{ title: 'General', fields: [{ key: 'links.y', label: 'Y', type: 'text' }] }] });
    const any: SingleSpec = ok;
    expect(any.sections[0]!.fields).toHaveLength(2);
  });
});
