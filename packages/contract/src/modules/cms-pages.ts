import { z } from 'zod';
import { endpoint, PUBLIC_ACCESS, readAccess } from '../resources/endpoint.js';
import { recordFields, resourceSpec, updateSchemaOf } from '../resources/spec.js';
import { defineStates, stateValues, stateOptions } from '../resources/states.js';

// ── CMS pages ──────────────────────────────────────────────────────────────
/** A page is written as a draft, published (the platform can read it), and may go back to draft. */
export const cmsPageStates = defineStates({
  noun: 'Page',
  states: [
    { value: 'draft', label: 'Draft', color: 'gray' },
    { value: 'published', label: 'Published', color: 'green' },
  ],
  initial: 'draft',
  transitions: {
    publish: { from: ['draft'], to: 'published' },
    unpublish: { from: ['published'], to: 'draft' },
  },
});

/** Lowercase letters and digits in words joined by single dashes: `terms`, `privacy-policy`. */
export const CMS_SLUG = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;

export const cmsPageCreate = z.object({
  slug: z
    .string({ error: 'Slug is required' })
    .trim()
    .min(1, 'Slug is required')
    .max(80, 'At most 80 characters')
    .regex(CMS_SLUG, 'Lowercase letters and digits, words joined by single dashes (e.g. privacy-policy)'),
  title: z.string({ error: 'Title is required' }).trim().min(2, 'At least 2 characters').max(200, 'At most 200 characters'),
  /** Rich text; sanitised on the server. */
  body: z.string({ error: 'Body is required' }).trim().min(1, 'Body is required').max(200_000, 'Too long'),
  metaTitle: z.string().trim().max(70, 'At most 70 characters (search engines cut longer titles)').default(''),
  metaDescription: z.string().trim().max(320, 'At most 320 characters').default(''),
});
export const cmsPageUpdate = updateSchemaOf(cmsPageCreate);

export const cmsPageRecord = z.object({
  _id: recordFields.id, slug: z.string(), title: z.string(), body: z.string(), status: z.enum(stateValues(cmsPageStates)),
  metaTitle: z.string(), metaDescription: z.string(), publishedAt: recordFields.atOrNull, createdAt: recordFields.at, updatedAt: recordFields.at,
}).strict();

export const cmsPagesResource = resourceSpec(cmsPageRecord, {
  name: 'cms-pages',
  label: 'CMS page',
  plural: 'CMS pages',
  restriction: 'CMS Pages',
  pages: { list: '/cms-list', add: '/add-cms', update: '/update-cms/{id}' },
  titleField: 'title',
  columns: [
    { key: 'title', label: 'Title', type: 'text', sortable: true },
    { key: 'slug', label: 'Slug', type: 'code', sortable: true },
    { key: 'status', label: 'Status', type: 'status', sortable: true },
    { key: 'publishedAt', label: 'Published', type: 'date', sortable: true },
    { key: 'updatedAt', label: 'Updated', type: 'date', sortable: true },
    { key: 'metaTitle', label: 'Meta title', type: 'text', hidden: true },
  ],
  filters: [
    { key: 'status', label: 'Status', type: 'oneOf', options: stateOptions(cmsPageStates) },
    { key: 'updatedAt', label: 'Updated', type: 'dateRange' },
  ],
  search: 'title or slug',
  defaultSort: 'title',
  deleteMode: 'delete',
  deletableIn: ['draft'],
  states: cmsPageStates,
  form: [
    { key: 'title', label: 'Title', type: 'text', required: true },
    { key: 'slug', label: 'Slug', type: 'text', required: true, description: 'Its address for the platform: GET /api/public/cms/<slug>. Lowercase words joined by dashes.', editableIn: ['draft'] },
    { key: 'body', label: 'Body', type: 'richtext', required: true, description: 'Headings, lists, links and basic formatting; scripts and styles are removed.' },
    { key: 'metaTitle', label: 'Meta title', type: 'text', description: 'For search engines and link previews; the title when empty.' },
    { key: 'metaDescription', label: 'Meta description', type: 'textarea' },
  ],
  create: cmsPageCreate,
  update: cmsPageUpdate,
  actions: [
    { name: 'publish', label: 'Publish', right: 'edit', confirm: 'The page becomes readable by the platform at once.' },
    { name: 'unpublish', label: 'Unpublish', right: 'edit', confirm: 'The platform stops showing the page (caches may keep it up to a minute).', danger: true },
  ],
});

/** A published page as the platform reads it. */
export const publicCmsPageSchema = z.object({
  slug: z.string(), title: z.string(), body: z.string(), metaTitle: z.string(), metaDescription: z.string(), publishedAt: z.string(), updatedAt: z.string(),
});
export type PublicCmsPage = z.infer<typeof publicCmsPageSchema>;

export const cmsPageEndpoints = {
  // A read (POST only because it takes the body being edited): nothing is stored.
  cmsPreview: endpoint('POST /api/admin/cms-pages/preview', {
    access: readAccess('CMS Pages'),
    summary: 'The body as it would be saved (sanitised), for the preview',
    body: z.object({ body: z.string().max(200_000) }).strict(),
    result: z.object({ html: z.string() }),
  }),
  publicPage: endpoint('GET /api/public/cms/:slug', {
    access: PUBLIC_ACCESS,
    summary: 'A published CMS page by its slug, for the platform (no session; 404 for a draft or an unknown slug; cacheable for a minute)',
    params: z.object({ slug: z.string().max(80) }),
    result: publicCmsPageSchema,
  }),
};
