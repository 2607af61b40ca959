import { tagsResource } from '@pitboss/contract';
import { tags } from '../../db/schema.js';
import { slugify } from '../../lib/slug.js';
import { iso, defineResource, } from '../../resources/define.js';
import { assertTagsUnused } from './service.js';

export const tagsDef = defineResource({
  spec: tagsResource,
  table: tags,
  idColumn: tags.id,
  columns: { name: tags.name, slug: tags.slug, status: tags.status, createdAt: tags.createdAt },
  searchColumns: [tags.name, tags.slug],
  toRecord: (r) => ({ _id: String(r.id), name: r.name, slug: r.slug, status: r.status, createdAt: iso(r.createdAt), updatedAt: iso(r.updatedAt) }),
  prepareCreate: (input) => ({ ...input, slug: input.slug || slugify(String(input.name), 'tag') }),
  prepareUpdate: (input) => (input.slug === '' ? { ...input, slug: undefined } : input),
  uniqueErrors: {
    tags_name_uq: { field: 'name', message: 'A tag with this name exists' },
    tags_slug_uq: { field: 'slug', message: 'A tag with this slug exists' },
  },
  statusColumn: tags.status,
  // A tag on events or series is refused with a 409 that says where it is used (not a foreign-key error).
  beforeDelete: (records, { tx }) => assertTagsUnused(tx, records.map((r) => Number(r._id))),
});
