import { z } from 'zod';
import { ACCOUNT_ACCESS, endpoint, readAccess, rightAccess, writeAccess, type Endpoint, type EndpointAccess } from './endpoint.js';
import { reportQuery, type ReportSpec } from './report.js';
import { singleEndpoints, singleFields, type SingleSpec } from './single.js';
import { hasImageField, imageUploadEndpoint } from '../modules/uploads.js';
import { actionOutputSchema, bulkActionBody, bulkActionRequest, bulkActionResultSchema, bulkPreviewRequest, bulkPreviewSchema, idParam, listQuerySchema, type ActionSpec, type ReferenceSpec, type ResourceSpec } from './spec.js';

/**
 * The endpoints a declaration gives, derived in the contract so that the server registers exactly
 * these (a test compares them with the running server's routes) and the web calls exactly these.
 */

/** Where a resource's endpoints live: `/api/admin/<name>`. */
export const resourceBase = (name: string): `/api/admin/${string}` => `/api/admin/${name}`;
/** Where a report's endpoints live. */
export const reportBase = (name: string): `/api/admin/reports/${string}` => `/api/admin/reports/${name}`;

const anyRecord = z.object({ _id: z.string() }).loose();

/** `{ items, total, page, limit, nextCursor? }` of a resource's records. */
export const listResultSchema = <R extends z.ZodType>(record: R) =>
  z.object({ items: z.array(record), total: z.number(), totalCapped: z.boolean().optional(), page: z.number(), limit: z.number(), nextCursor: z.string().nullable().optional(), prevCursor: z.string().nullable().optional() });

const emptyBody = z.object({}).strict().nullish();

/**
 * The records a reference input may offer (`GET <base>/choices/<place>`): what the admin typed
 * (`q`), or the ids whose labels the input shows (`ids`, comma-separated), never both.
 */
export const choicesQuerySchema = z
  .object({
    q: z.string().max(100).optional(),
    ids: z.string().regex(/^\d{1,18}(,\d{1,18}){0,49}$/, 'Up to 50 ids, comma-separated').optional(),
  })
  .strict()
  .refine((x) => x.q === undefined || x.ids === undefined, { message: 'Give either q or ids', path: ['ids'] });
/** A reference input's offer: each record's id and label, and the fields its reference declares `extra` (a coin's decimals), nothing else of it. */
export const choicesResultSchema = z.object({
  items: z.array(z.object({ _id: z.string(), label: z.string(), extra: z.record(z.string(), z.union([z.string(), z.number(), z.boolean(), z.null()])).optional() })),
});
export type Choice = z.infer<typeof choicesResultSchema>['items'][number];
/** How many records a reference input offers for a search. */
export const CHOICES_LIMIT = 20;

/**
 * Where a reference input of a declaration asks for its choices: a filter's, a form field's or an
 * action field's (`/api/admin/withdrawals/choices/filter/userId`). Each is an endpoint of its own,
 * under the right that opens the list, the form or the action (`choicePlaces`; docs/architecture.md's
 * "Referencing another resource" says what it offers).
 */
export type ChoicesPlace = { kind: 'filter' | 'form'; key: string } | { kind: 'action'; action: string; key: string };
export const choicesPath = (resource: string, place: ChoicesPlace): `/api/admin/${string}` =>
  `${resourceBase(resource)}/choices/${place.kind === 'action' ? `action/${place.action}` : place.kind}/${place.key}`;

/** An action's access: view, edit, or its named right, under the declaration's restriction. */
export function actionAccess(spec: ResourceSpec, a: ActionSpec): EndpointAccess {
  const restriction = spec.restriction;
  if (!restriction) return ACCOUNT_ACCESS;
  return a.right === 'view' ? readAccess(restriction) : a.right === 'edit' ? writeAccess(restriction) : rightAccess(restriction, a.right.named);
}

/**
 * Every reference input of a declaration with a restriction, with the access its choices take: a
 * filter's and a form field's the declaration's view right (the form shows its values' labels to an
 * admin who may only view it; its save still needs edit), an action field's the action's right.
 */
export function choicePlaces(spec: ResourceSpec): { place: ChoicesPlace; reference: ReferenceSpec; access: EndpointAccess; what: string }[] {
  const restriction = spec.restriction;
  if (!restriction) return [];
  const out: { place: ChoicesPlace; reference: ReferenceSpec; access: EndpointAccess; what: string }[] = [];
  for (const f of spec.filters) {
    if (f.type === 'equals' && f.reference) out.push({ place: { kind: 'filter', key: f.key }, reference: f.reference, access: readAccess(restriction), what: `the ${f.label.toLowerCase()} filter` });
  }
  for (const a of spec.actions ?? []) {
    for (const f of a.fields ?? []) {
      if (f.reference) out.push({ place: { kind: 'action', action: a.name, key: f.key }, reference: f.reference, access: actionAccess(spec, a), what: `${a.label}: ${f.label.toLowerCase()}` });
    }
  }
  if (!spec.readOnly) {
    for (const f of spec.form ?? []) {
      if (f.reference) out.push({ place: { kind: 'form', key: f.key }, reference: f.reference, access: readAccess(restriction), what: `the ${f.label.toLowerCase()} field` });
    }
  }
  return out;
}

/** The export's query: the list's filters, search and sort, without paging. */
export const exportQuerySchema = (spec: ResourceSpec) => listQuerySchema(spec).omit({ page: true, limit: true, cursor: true, before: true });

export function resourceEndpoints(spec: ResourceSpec): Endpoint[] {
  const base = resourceBase(spec.name);
  const record = spec.record ?? anyRecord;
  const read = spec.restriction ? readAccess(spec.restriction) : ACCOUNT_ACCESS;
  const out: Endpoint[] = [
    endpoint(`GET ${base}`, { access: read, summary: `List ${spec.plural.toLowerCase()}`, query: listQuerySchema(spec), result: listResultSchema(record) }),
    endpoint(`GET ${base}/export`, { access: read, summary: `${spec.plural} as CSV`, query: exportQuerySchema(spec), file: 'csv' }),
    endpoint(`GET ${base}/:id`, { access: read, summary: `One ${spec.label.toLowerCase()}`, params: idParam, result: record }),
  ];
  const restriction = spec.restriction;
  // Resources open to every admin (own rows through their scope) are read-only, and their reference
  // filters offer only what the admin may browse (no choices of their own).
  if (!restriction) return out;
  for (const c of choicePlaces(spec)) out.push(endpoint(`GET ${choicesPath(spec.name, c.place)}`, { access: c.access, summary: `Choices of ${c.what} (id and label)`, query: choicesQuerySchema, result: choicesResultSchema }));
  for (const a of spec.actions ?? []) {
    const access = actionAccess(spec, a);
    const result = a.output ? record.extend({ actionOutput: actionOutputSchema }) : record;
    out.push(endpoint(`POST ${base}/:id/${a.name}`, { access, summary: a.label, params: idParam, body: a.input ?? emptyBody, result }));
    if (a.bulk) out.push(endpoint(`POST ${base}/bulk/${a.name}`, { access, summary: `${a.label}: many at once`, body: bulkActionRequest(a), result: bulkActionResultSchema }));
    if (a.bulk) out.push(endpoint(`POST ${base}/bulk/${a.name}/preview`, { access, summary: `${a.label}: what many at once would cover`, body: bulkPreviewRequest, result: bulkPreviewSchema }));
  }
  if (spec.readOnly) return out;
  const write = writeAccess(restriction);
  if (hasImageField(spec.form)) out.push(imageUploadEndpoint(base, spec.label, restriction));
  if (spec.create) out.push(endpoint(`POST ${base}`, { access: spec.createRight ? rightAccess(restriction, spec.createRight.named) : write, summary: `Create a ${spec.label.toLowerCase()}`, body: spec.create, result: record }));
  if (spec.update) out.push(endpoint(`PATCH ${base}/:id`, { access: write, summary: `Update a ${spec.label.toLowerCase()}`, params: idParam, body: spec.update, result: record }));
  const removable = spec.deleteMode === 'delete' || spec.deleteMode === 'archive';
  if (removable) out.push(endpoint(`DELETE ${base}/:id`, { access: write, summary: `${spec.deleteMode === 'archive' ? 'Archive' : 'Delete'} a ${spec.label.toLowerCase()}`, params: idParam }));
  if (spec.deleteMode === 'archive') out.push(endpoint(`POST ${base}/:id/restore`, { access: write, summary: `Restore an archived ${spec.label.toLowerCase()}`, params: idParam, result: record }));
  if (removable || spec.bulkStatuses?.length) {
    out.push(endpoint(`POST ${base}/bulk`, { access: write, summary: `Delete or change the status of many ${spec.plural.toLowerCase()}`, body: bulkActionBody, result: z.object({ affected: z.number() }) }));
  }
  return out;
}

export function singleEndpointDefs(spec: SingleSpec): { read: Endpoint; update: Endpoint; images?: Endpoint } {
  const paths = singleEndpoints(spec);
  const readQuery = z.object({ fields: z.string().max(500).regex(/^[A-Za-z,]*$/, 'Comma-separated field names').optional() }).strict();
  return {
    read: endpoint(`GET ${paths.read as `/api/${string}`}`, {
      access: spec.readableByEveryAdmin ? ACCOUNT_ACCESS : readAccess(spec.restriction), summary: `${spec.label} (\`?fields=a,b\` for some)`,
      query: readQuery, result: spec.record.partial().extend({ _id: z.string() }),
    }),
    update: endpoint(`${paths.update.method} ${paths.update.path as `/api/${string}`}`, { access: writeAccess(spec.restriction), summary: `Change ${spec.label.toLowerCase()}`, body: spec.update, result: spec.record }),
    ...(hasImageField(singleFields(spec)) ? { images: imageUploadEndpoint(resourceBase(spec.name), spec.label, spec.restriction) } : {}),
  };
}

export const reportResultSchema = z.object({ from: z.string(), to: z.string(), timezone: z.string(), rows: z.array(z.record(z.string(), z.unknown())) });

export function reportEndpointDefs(spec: ReportSpec): { data: Endpoint; export: Endpoint } {
  const base = reportBase(spec.name);
  const access = readAccess(spec.restriction);
  return {
    data: endpoint(`GET ${base}`, { access, summary: spec.title, query: reportQuery, result: reportResultSchema }),
    export: endpoint(`GET ${base}/export`, { access, summary: `${spec.title} as CSV`, query: reportQuery, file: 'csv' }),
  };
}
