import { z } from 'zod';
import type { ReasonCode } from '../lib/reasons.js';
import type { AuditAction } from '../audit.js';
import type { RestrictionName } from '../restrictions.js';
import { transitionOf, type StateMachine } from './states.js';

/**
 * A resource is declared once: its API name, restriction, pages, record
 * columns, typed filters, sortable fields, form fields and schemas. The
 * server builds the endpoints from it and the web app builds the list and
 * form pages from it.
 */
/** `image`: a stored image's address, shown as its thumbnail. `color`: a CSS hex colour, shown as a swatch. */
export type ColumnType = 'text' | 'longtext' | 'number' | 'money' | 'date' | 'bool' | 'status' | 'tags' | 'code' | 'json' | 'balances' | 'image' | 'color' | 'links';

export interface ColumnSpec<K extends string = string> {
  key: K;
  label: string;
  type: ColumnType;
  sortable?: boolean;
  /**
   * A sortable `money` column's amounts rank within each of these (`coin`, `currency`), grouped by
   * it: minor units compare only within one coin (1 SOL is 10^9 of them, 1 USDC 10^6). The header
   * says so; filter by one coin to rank its amounts alone.
   */
  sortWithin?: string;
  /** Hidden until the user shows it (column visibility). */
  hidden?: boolean;
  /** Another field of the record shown on hover (the raw user agent behind a parsed "Chrome 131 on macOS"). */
  hint?: K;
  /** A `bool` column whose false is worth seeing (a failed sign-in, a coin closed to deposits): "No" in red; otherwise neutral grey. */
  falseIsAlert?: boolean;
  /**
   * A `date` column of a scheduled moment, read as words: "Closes in 5 hours" while ahead; once the
   * record's `actual` field is set, that moment instead, "Closed 3 hours ago" (a market closed early
   * never reads "Closes in 5 hours"). A scheduled moment passed without the actual one: the date alone.
   */
  moment?: { future: string; past: string; actual?: K };
}

/**
 * A reference to a record of another resource (a user, a module), held as its `_id`. The web picks
 * it by searching the target's list as the admin types (`q`, ~20 results) and shows the target's
 * `labelKey` (fetched by id for the current value); an admin who may not view the target gets a
 * plain id input. The server checks at start that the target is served, searchable and has that
 * field, and answers 400 on the field for an id with no row.
 */
export interface ReferenceSpec {
  /** The target resource's API name (`users`, `modules`). */
  resource: string;
  /** The target record's field shown for it (`username`, `name`). */
  labelKey: string;
  /** The target's list filters that narrow what the picker offers (`{ status: 'draft,open' }`); the server's rules still decide. */
  filter?: Readonly<Record<string, string>>;
  /**
   * Fields of the target record its choices carry besides id and label (a coin's `decimals` and
   * `symbol`, which a `money` field of the same form reads): public facts only, since an admin who
   * may not view the target still gets them.
   */
  extra?: readonly string[];
}

/**
 * A `money` field: typed as a decimal in its coin's units (`5`, `0.25`), posted as integer minor
 * units (`parseUnits`). The coin's decimals and symbol come from the record chosen in a reference
 * field of the same form (`field`: its choices carry them, `ReferenceSpec.extra`), else from the
 * record being edited (a coin's own minimum withdrawal).
 */
export interface MoneySpec {
  field?: string;
  /** The key of the coin's decimals and symbol, in the chosen record (`field`) or the record edited. */
  decimals: string;
  symbol: string;
  /** A negative amount is allowed (a debit). */
  negative?: boolean;
  /** Zero is allowed (no fee; 0 = always review). */
  zero?: boolean;
  /** Money only while another field holds one of these values (a reward's threshold counts deposits); otherwise a whole number typed as is. */
  when?: { field: string; is: readonly string[] };
}

/** A declared choice: the API value and what people read for it. */
export interface FilterOption {
  value: string;
  label: string;
  /** The badge colour of a `status` column showing this value (a Mantine colour), for a status that is no state machine's. */
  color?: string;
}

export type FilterSpec<K extends string = string> =
  /**
   * `reference`: the value is a record of another resource, chosen with a searchable picker.
   * `options`: one of these values, chosen by label (the API refuses any other); `'resources'`: an
   * API resource name (the audit log's vocabulary), labelled by its declaration's title, other names
   * still accepted (see `filterOptions`); `'countries'`: an ISO 3166 code (`isCountryCode`), chosen
   * as "France (FR)", the filter's own comparison deciding (an offline store's country). A column of
   * the same key shows the same labels.
   */
  | { key: K; label: string; type: 'equals'; reference?: ReferenceSpec; options?: readonly FilterOption[] | 'resources' | 'countries' }
  | { key: K; label: string; type: 'oneOf'; options: readonly FilterOption[] }
  | { key: K; label: string; type: 'range' }
  | { key: K; label: string; type: 'dateRange' };

/**
 * `datetime`: an instant, ISO 8601 in the API, the admin's local time in the form. `reference`:
 * one record of another resource, searched on the server as the admin types. `multiselect`: a list
 * of declared option values, or of ids of a small catalogue (`optionsFrom`: tags). `image`: an
 * uploaded image's address (a drop zone with a preview; the file goes through the resource's upload
 * endpoint, `POST <base>/images`). `color`: a `#rrggbb` colour. `keyvalue`: a list of name/value pairs.
 * `odds`: a percentage with two decimals per record of a small catalogue (`optionsFrom`: card tiers),
 * as `[{ tierId, percent }]`, its running sum shown and held to 100.00 % (booster packs). `money`:
 * an amount typed in its coin's units and posted as minor units (`MoneySpec`).
 */
export type FormFieldType = 'text' | 'email' | 'password' | 'textarea' | 'richtext' | 'number' | 'select' | 'multiselect' | 'datetime' | 'switch' | 'tags' | 'permissions' | 'reference' | 'image' | 'color' | 'keyvalue' | 'odds' | 'money';

interface FormFieldBase<K extends string> {
  key: K;
  label: string;
  /**
   * The choices of a `select`; `'countries'`: an ISO 3166 code, searched and chosen by name as
   * "France (FR)" (`countryOptions`, the codes `isCountryCode` takes; the schema still checks the code).
   * `fieldOptions` gives the list either way.
   */
  options?: readonly FilterOption[] | 'countries';
  /**
   * A `multiselect`'s choices from a small catalogue (value = its `_id`; at most 200 rows), optionally
   * narrowed by its list filters (`{ status: 'active' }`). A record among many is a `reference`.
   */
  optionsFrom?: { resource: string; labelKey: string; filter?: Readonly<Record<string, string>> };
  description?: string;
  placeholder?: string;
  /** Shown only when creating (e.g. the initial password). */
  createOnly?: boolean;
  /** The value a new record's form starts on (the create schema's default, shown instead of an empty box). */
  initial?: string | number | boolean;
  /**
   * An action's field starts on this field of the record it acts on, when set (a market's resolve
   * source starts on its series' settlement source); the admin may change it.
   */
  initialFrom?: string;
  required?: boolean;
  /**
   * The states (of the resource's machine) in which this field may change. In any other state the
   * form shows it read-only and the API refuses a change with 409 and the field's error: a market's
   * ticker and event are fixed once it has opened.
   */
  editableIn?: readonly string[];
  /**
   * Shown only while another field of the form (a choice) holds one of these values: a reward card's
   * period applies to trading volume only. Hidden, the field does not apply: the form neither shows
   * nor requires it and sends null for it, and the API stores null (`clearHiddenFields`), whatever
   * was sent, so a value left over from another choice never lingers.
   */
  visibleWhen?: { field: string; is: readonly string[] };
}

/**
 * Whether a field applies to these values (`visibleWhen`). Unknown when the controlling field has no
 * value here (a patch that does not change it): then it applies.
 */
export function fieldApplies(field: Pick<FormFieldBase<string>, 'visibleWhen'>, values: Readonly<Record<string, unknown>>): boolean {
  const when = field.visibleWhen;
  if (!when) return true;
  const v = values[when.field];
  if (v === undefined) return true;
  return when.is.includes(String(v));
}

/** The values with every field that does not apply (`visibleWhen`) set to null; `context` gives the controlling values a patch lacks (the stored record). */
export function clearHiddenFields<T extends Record<string, unknown>>(fields: readonly Pick<FormFieldBase<string>, 'key' | 'visibleWhen'>[], values: T, context: Readonly<Record<string, unknown>> = {}): T {
  const all = { ...context, ...values };
  let out = values;
  for (const f of fields) {
    if (fieldApplies(f, all)) continue;
    if (out === values) out = { ...values };
    (out as Record<string, unknown>)[f.key] = null;
  }
  return out;
}

/** A form field; `type: 'reference'` (another resource's record, by id) names its target in `reference`, `type: 'money'` its coin in `money`. */
export type FormFieldSpec<K extends string = string> = FormFieldBase<K> &
  (
    | { type: Exclude<FormFieldType, 'reference' | 'money'>; reference?: never; money?: never }
    | { type: 'reference'; reference: ReferenceSpec; money?: never }
    | { type: 'money'; money: MoneySpec; reference?: never }
  );

/**
 * An action on one record (approve, reject, set password…). From its
 * declaration come `POST /api/admin/<resource>/:id/<name>`, its permission
 * (view, edit, or a named right under the resource's restriction name), the
 * state check (an action named like a transition of the resource's `states`
 * makes that move, and answers 409 from any other state), its audit entry, its row in
 * the permission test, and a button with its form or confirmation on the
 * list row and the record page, hidden when the state or the right forbids it.
 */
export interface ActionSpec {
  /** URL segment and audit action (one of AUDIT_ACTIONS): `approve`, `set-password`. */
  name: AuditAction;
  label: string;
  /**
   * `edit`, or the key of a named right of the restriction name (NAMED_RIGHTS); `view` for an action
   * that changes nothing (a check such as an opening's Verify): anyone who may view the resource.
   */
  right: 'view' | 'edit' | { named: string };
  /** Body schema (an object); none means an empty body. */
  input?: z.ZodObject;
  /** Fields of the action's form, keys of `input`. */
  fields?: readonly FormFieldSpec[];
  /** Asks before acting; the text says what will happen. */
  confirm?: string;
  /** Shown in red: it cannot be undone or takes something away. */
  danger?: boolean;
  /**
   * Offered over many records too: `POST /api/admin/<resource>/bulk/<name>` with `{ ids } | { query }`
   * and the action's `input`, and a button in the list's bulk bar. Each record goes through the
   * single action (own transaction, lock, state check, audit entry); records it refuses are skipped
   * with the reason. For queue work (approve, block), never for one-off corrections.
   */
  bulk?: boolean;
  /**
   * What the action hands back besides the record: rows shown once in a dialog after it ran (codes
   * just generated, a verification's card-by-card comparison), with their columns, and, with `csv`,
   * a button downloading them as a CSV file right then (named `csv`, or the output's own `filename`).
   * The endpoint's result is then the record with `actionOutput: { summary, rows }`; nothing of it is
   * stored by the mechanism.
   */
  output?: { title: string; note?: string; columns: readonly { key: string; label: string }[]; csv?: string };
  /**
   * Offered only on records whose field holds this value (a user's "Make house account" on a
   * customer's account). The button's visibility only: the service refuses the rest (409), as for a state.
   */
  shownWhen?: { key: string; equals: string | number | boolean | null };
  /**
   * `false`: offered on the record's page only, not as a button on every row of the list (a rare
   * change such as "Make house account" would crowd the rows of a list worked as a queue).
   */
  listed?: boolean;
  /**
   * How the dialog names the one record it acts on, so nobody decides blind: a sentence from the
   * record's fields (`'Credit {amountText} to {username}'`), a long code shown by its ends with a
   * copy button (`txSignature`), and a link out (`explorerUrl`, "View on the explorer"). Without
   * it: "<label>: <title field>".
   */
  subject?: { title: string; code?: string; link?: { key: string; label: string } };
  /**
   * The reason codes it takes (`reasonCoded` in lib/reasons.ts gives them with the matching `input`
   * and `fields`): the record stores the code, a list filter and a column show it by label, the
   * audit entry has it.
   */
  reasons?: readonly ReasonCode[];
}

/** An action's dialog title for a record (`ActionSpec.subject`): each `{field}` replaced by the record's value. */
export function actionTitle(action: Pick<ActionSpec, 'label' | 'subject'>, record: Readonly<Record<string, unknown>>, titleField: string): string {
  if (!action.subject) return `${action.label}: ${String(record[titleField] ?? '')}`;
  return action.subject.title.replace(/\{(\w+)\}/g, (_, key: string) => String(record[key] ?? ''));
}

/** The rows an action with `output` answers (`ActionSpec.output`). */
export const actionOutputSchema = z
  .object({
    summary: z.string(),
    ok: z.boolean(),
    rows: z.array(z.record(z.string(), z.string())),
    /** The CSV's file name for these rows (the store, the pack, the time), instead of the declared `csv`. */
    filename: z.string().regex(/^[a-z0-9][a-z0-9.-]{0,150}\.csv$/).optional(),
  })
  .strict();
export type ActionOutput = z.infer<typeof actionOutputSchema>;

/**
 * A child list on the parent's page (user → deposits): a tab with the child's
 * own list (filters, sort, export) scoped to the parent through one of the
 * child's `equals` filters, which holds the parent's `_id`. The tab shows only
 * to admins who may view the child. When the child has an add page and a form
 * field named like the filter (event → markets: `eventId`), the tab offers
 * "Add <child>" with the parent already chosen, and the form comes back to the
 * parent's page.
 */
export interface ChildSpec {
  resource: string;
  label: string;
  /** The child's `equals` filter that takes the parent's id. */
  filter: string;
  /** The parent record's field the filter takes instead of its `_id` (a trade bot's `userId`: the orders of the user it trades as). */
  parentKey?: string;
  /** Columns left out of the tab: they only repeat the parent (a store's allocations do not show the store). */
  hideColumns?: readonly string[];
  /** Columns hidden on the child's own list that the tab shows (a market's positions: who is a house account, P&L either way). */
  showColumns?: readonly string[];
}

/** The list a child tab shows: the child's columns less `hideColumns`, with `showColumns` shown. */
export function childListSpec(spec: ResourceSpec, child: Pick<ChildSpec, 'hideColumns' | 'showColumns'>): ResourceSpec {
  if (!child.hideColumns && !child.showColumns) return spec;
  const columns = spec.columns
    .filter((c) => !child.hideColumns?.includes(c.key))
    .map((c) => (child.showColumns?.includes(c.key) ? { ...c, hidden: false } : c));
  return { ...spec, columns };
}

/**
 * Another list page over the same resource: a preset of its list (filters it always applies, its own
 * sort and columns), for a queue or a scoped view (closed markets awaiting resolution, an event's
 * markets). Records, actions and the API are the resource's own (`/api/admin/<name>`); the page's
 * access is its route's. A fixed value `{param}` is the route's placeholder (`/event-resolution/{id}`).
 */
export interface ListViewSpec<K extends string = string> {
  /** The page's route pattern. */
  page: string;
  /** The page's heading. */
  title: string;
  /** What the page is for, under the heading. */
  description?: string;
  /** Filters always applied (not shown, not removable), by filter parameter. */
  fixed: Readonly<Record<string, string>>;
  defaultSort?: K | `-${K}`;
  /** The columns shown by default, in the resource's order (the rest can be shown from the column menu). */
  columns?: readonly K[];
  /**
   * The record the route's placeholder names (`/event-resolution/{id}`: the event), named under the
   * heading: its title and code from the list's own rows (`rowTitle`, `rowCode`: every row carries
   * them), else read from the subject's resource (`title`, `code`) when the admin may view it.
   */
  subject?: ViewSubjectSpec<K>;
}

export interface ViewSubjectSpec<K extends string = string> {
  /** What it is (`Event`). */
  label: string;
  /** The route placeholder holding its id. */
  param: string;
  /** Its resource, for its page and for reading it when the list has no rows. */
  resource: string;
  title: string;
  code?: string;
  rowTitle: K;
  rowCode?: K;
}

/** The resource as one of its views shows it: its sort and default columns. */
export function specForView(spec: ResourceSpec, view: ListViewSpec): ResourceSpec {
  const shown = view.columns;
  return {
    ...spec,
    defaultSort: view.defaultSort ?? spec.defaultSort,
    columns: shown ? spec.columns.map((c) => ({ ...c, hidden: !shown.includes(c.key) })) : spec.columns,
  };
}

/** A view's fixed filters with the route's placeholders (`{id}`) filled from its parameters; null when one is missing. */
export function viewFilters(view: ListViewSpec, params: Readonly<Record<string, string | undefined>>): Record<string, string> | null {
  const out: Record<string, string> = {};
  for (const [key, value] of Object.entries(view.fixed)) {
    const m = /^\{(\w+)\}$/.exec(value);
    const filled = m ? params[m[1]!] : value;
    if (filled === undefined || filled === '') return null;
    out[key] = filled;
  }
  return out;
}

export interface ResourcePages {
  list: string;
  add?: string;
  update?: string;
}

/**
 * `K` is the record's field names (from its schema): a column, filter, sort or title key that is
 * not a field fails the type check. `S` is the record's schema: `RecordOf<typeof spec>` is the
 * record's type, which the server's `toRecord` returns and the web's calls read. `ResourceSpec`
 * alone (K = string) is any resource.
 */
export interface ResourceSpec<K extends string = string, S extends z.ZodObject = z.ZodObject> {
  /** The record as the API returns it (`_id` and the fields); lists are checked against it in tests. */
  record?: S;
  /** API path segment: `/api/admin/<name>`. */
  name: string;
  /** Singular and plural labels. */
  label: string;
  plural: string;
  /** Null: open to every signed-in admin, read-only, each seeing what the server's scope gives them (own sign-ins). */
  restriction: RestrictionName | null;
  pages: ResourcePages;
  columns: readonly ColumnSpec<K>[];
  /** `archived` is the archive filter of `deleteMode: 'archive'` resources (over `archivedAt`). */
  filters: readonly FilterSpec<K | 'archived'>[];
  /** Whether `q` free-text search applies (and to what, for the placeholder). */
  search?: string;
  /** A line under the list (a data source's credit): its text, and a link after it. */
  footnote?: { text: string; link?: { label: string; href: string } };
  defaultSort: K | `-${K}`;
  /** Keyset pagination (`cursor`) offered: for large, append-mostly tables. */
  keyset?: boolean;
  readOnly?: boolean;
  /**
   * `delete` removes the row; `archive` sets its `archivedAt` (lists hide
   * archived rows unless filtered with `archived=true`; `POST /:id/restore`
   * brings one back); `none` offers no removal.
   */
  deleteMode?: 'delete' | 'archive' | 'none';
  /**
   * The states (of `states`) in which a record may be deleted: elsewhere the delete button does not
   * show and the API answers 409 (a market that has opened keeps its history). Default: any state.
   */
  deletableIn?: readonly string[];
  /** Statuses a bulk change may set. */
  bulkStatuses?: readonly string[];
  form?: readonly FormFieldSpec[];
  create?: z.ZodType;
  /**
   * Creating needs this named right of the restriction name instead of `edit` (pulling the kill
   * switch is not editing markets): the create endpoint, the Add button and the add page follow it.
   */
  createRight?: { named: string };
  /**
   * How adding one is worded when it is not "Add <label>" / "Create <label>": the button and page
   * title (`label`), the submit button (`submit`), red when it stops something (`danger`).
   */
  adding?: { label: string; submit: string; danger?: boolean };
  update?: z.ZodType;
  /** The field a record's title is shown from. */
  titleField: K;
  actions?: readonly ActionSpec[];
  /** The state machine of the record's `status`: an action named like one of its transitions makes that move. */
  states?: StateMachine;
  children?: readonly ChildSpec[];
  /** More list pages over this resource, each a preset of its list (see ListViewSpec). */
  views?: readonly ListViewSpec<K>[];
  /** Record fields shown as a table of figures above the form on the record's page (a trade bot's last run and P&L). */
  figures?: readonly K[];
  /**
   * The page a record opens when it is not the update form: a custom page under another restriction
   * name (a ticket's conversation, `/support-reply/{id}`). Rows and the command palette link there.
   */
  recordPage?: string;
  /** A record field holding the in-app path its row opens (a queue of records of several resources). */
  linkField?: K;
  /**
   * The record's amount (money): its minor units, its coin's symbol and decimals. A bulk action's
   * dialog shows the selection's total per coin and its largest item from it, before it runs.
   */
  amount?: { key: K; coin: K; decimals: K };
}

/** A declaration typed by its record schema: every key it names must be a field of the record. */
export function resourceSpec<S extends z.ZodObject>(record: S, spec: Omit<ResourceSpec<Extract<keyof z.infer<S>, string>>, 'record'>): ResourceSpec<Extract<keyof z.infer<S>, string>, S> {
  return { ...spec, record };
}

/** The record a declaration's API returns, typed from its schema (`{ _id: string } & …` for any resource). */
export type RecordOf<T> = T extends { record?: infer S extends z.ZodObject } ? z.infer<S> & { _id: string } : { _id: string } & Record<string, unknown>;

/** Whether the admin may create records of the resource: its create right (`createRight`, else edit). */
export function mayCreate(spec: ResourceSpec, access: { canView: boolean; canEdit: boolean; rights?: readonly string[] }): boolean {
  if (!spec.create || spec.readOnly) return false;
  return spec.createRight ? access.canView && (access.rights ?? []).includes(spec.createRight.named) : access.canView && access.canEdit;
}

/** The actions an admin may see on a record: allowed by its state and the admin's access to the resource. */
export function availableActions(spec: ResourceSpec, record: Record<string, unknown>, access: { canView: boolean; canEdit: boolean; rights?: readonly string[] }, where: ActionPlace = {}): ActionSpec[] {
  return permittedActions(spec, access, where).filter((a) => {
    const t = transitionOf(spec.states, a.name);
    if (t && !t.from.includes(String(record.status))) return false;
    return !a.shownWhen || record[a.shownWhen.key] === a.shownWhen.equals;
  });
}

/** Where the buttons go: `inList`, a list's row, leaves out the actions declared `listed: false`. */
export interface ActionPlace {
  inList?: boolean;
}

/** The actions the admin's rights permit on some record of the resource, whatever its state (a list's Actions column). */
export function permittedActions(spec: ResourceSpec, access: { canView: boolean; canEdit: boolean; rights?: readonly string[] }, where: ActionPlace = {}): ActionSpec[] {
  return (spec.actions ?? []).filter((a) => {
    if (where.inList && a.listed === false) return false;
    if (a.right === 'view') return access.canView;
    if (a.right === 'edit') return access.canView && access.canEdit;
    return access.canView && (access.rights ?? []).includes(a.right.named);
  });
}

/** The actions an admin may run over a selection of records: declared `bulk`, with the right (each record's state is checked by the server). */
export function bulkActionsFor(spec: ResourceSpec, access: { canView: boolean; canEdit: boolean; rights?: readonly string[] }): ActionSpec[] {
  return spec.restriction ? permittedActions(spec, access).filter((a) => a.bulk) : [];
}

/** How many records one bulk action call may touch: each runs in its own transaction. */
export const BULK_ACTION_MAX = 1_000;

/**
 * The body of `POST /api/admin/<resource>/bulk/<action>`: the selected `ids`, or `query` for every
 * record matching a list query (filters and search only, as `POST /bulk` takes it), and the
 * action's `input` (the same body the single action takes), applied to each record.
 */
export function bulkActionRequest(action: ActionSpec) {
  return z
    .object({ ...bulkSelection, input: action.input ?? z.object({}).strict().optional() })
    .strict()
    .refine(oneSelection, { message: 'Give either ids or a query', path: ['ids'] });
}

/** The records a bulk call works on: the selected `ids`, or `query` for every record matching a list query. */
const bulkSelection = {
  ids: z
    .array(z.string().regex(/^\d{1,18}$/, 'Invalid id'))
    .min(1, 'Select at least one record')
    .max(BULK_ACTION_MAX, `At most ${BULK_ACTION_MAX.toLocaleString('en')} records at once`)
    .optional(),
  query: z.record(z.string(), z.string()).optional(),
};
const oneSelection = (b: { ids?: unknown; query?: unknown }) => (b.ids !== undefined) !== (b.query !== undefined);
export type BulkActionRequest = { ids: string[]; input?: Record<string, unknown> } | { query: Record<string, string>; input?: Record<string, unknown> };

/** What a bulk action would cover (`POST <base>/bulk/<action>/preview`, the selection as the action takes it). */
export const bulkPreviewRequest = z.object(bulkSelection).strict().refine(oneSelection, { message: 'Give either ids or a query', path: ['ids'] });
/**
 * Before a bulk action runs: how many records it would act on (those whose state it applies to; the
 * others, `notApplicable`, it would skip), and per coin the total of their amounts and the largest
 * one (the resource's declared `amount`, minor units), so nobody approves a set blind.
 */
export const bulkPreviewSchema = z.object({
  count: z.number().int(),
  notApplicable: z.number().int(),
  totals: z.array(
    z.object({
      coin: z.string(), decimals: z.number().int(), count: z.number().int(), total: z.string(),
      largest: z.object({ _id: z.string(), title: z.string(), amount: z.string() }),
    }),
  ),
});
export type BulkPreview = z.infer<typeof bulkPreviewSchema>;

/** What a bulk action answers: how many records it changed, and each one it left alone with the reason. */
export const bulkActionResultSchema = z.object({ done: z.number(), skipped: z.array(z.object({ id: z.string(), reason: z.string() })) });
export type BulkActionResult = z.infer<typeof bulkActionResultSchema>;

/** Every reference a declaration makes: its form fields, its actions' fields and its filters. */
export function referencesOf(spec: ResourceSpec): { where: string; reference: ReferenceSpec }[] {
  const found: { where: string; reference: ReferenceSpec }[] = [];
  for (const f of spec.form ?? []) if (f.reference) found.push({ where: `field "${f.key}"`, reference: f.reference });
  for (const a of spec.actions ?? []) for (const f of a.fields ?? []) if (f.reference) found.push({ where: `action "${a.name}" field "${f.key}"`, reference: f.reference });
  for (const f of spec.filters) if (f.type === 'equals' && f.reference) found.push({ where: `filter "${f.key}"`, reference: f.reference });
  return found;
}

/**
 * What is wrong with a declaration's references, given the resources that exist: each must name a
 * resource of `resources`, one whose list can be searched (the picker types into `q`), and a field
 * of its record as the label. The server refuses to start on any of these; the contract test runs
 * it over every declaration.
 */
export function referenceProblems(spec: ResourceSpec, resources: Readonly<Record<string, ResourceSpec>>): string[] {
  const problems: string[] = [];
  for (const { where, reference } of referencesOf(spec)) {
    const target = Object.hasOwn(resources, reference.resource) ? resources[reference.resource] : undefined;
    if (!target) {
      problems.push(`${where} references the unknown resource "${reference.resource}"`);
      continue;
    }
    if (!target.search) problems.push(`${where} references "${reference.resource}", whose list has no search to pick from`);
    if (target.record && !(reference.labelKey in target.record.shape)) problems.push(`${where} shows "${reference.labelKey}", not a field of ${reference.resource}`);
    for (const key of reference.extra ?? []) if (target.record && !(key in target.record.shape)) problems.push(`${where} carries "${key}", not a field of ${reference.resource}`);
  }
  problems.push(...moneyProblems(spec));
  // An action's subject and the declared amount name fields of the record.
  const fields = spec.record ? new Set(Object.keys(spec.record.shape)) : null;
  if (fields) {
    for (const a of spec.actions ?? []) {
      const s = a.subject;
      if (!s) continue;
      const keys = [...[...s.title.matchAll(/\{(\w+)\}/g)].map((m) => m[1]!), ...(s.code ? [s.code] : []), ...(s.link ? [s.link.key] : [])];
      for (const key of keys) if (!fields.has(key)) problems.push(`action "${a.name}" subject names "${key}", not a field of the record`);
    }
    for (const key of spec.amount ? [spec.amount.key, spec.amount.coin, spec.amount.decimals] : []) if (!fields.has(key)) problems.push(`amount names "${key}", not a field of the record`);
  }
  return problems;
}

/**
 * What is wrong with a declaration's money fields: one reading its coin from a reference field
 * needs that field in the same form with both keys among its choices' `extra`; one reading the
 * record edited needs both keys in the record.
 */
function moneyProblems(spec: ResourceSpec): string[] {
  const problems: string[] = [];
  const forms: { where: string; fields: readonly FormFieldSpec[] }[] = [
    { where: '', fields: spec.form ?? [] },
    ...(spec.actions ?? []).map((a) => ({ where: `action "${a.name}" `, fields: a.fields ?? [] })),
  ];
  for (const { where, fields } of forms) {
    for (const f of fields) {
      if (f.type !== 'money') continue;
      const { field, decimals, symbol } = f.money;
      if (field) {
        const ref = fields.find((g) => g.key === field)?.reference;
        if (!ref) problems.push(`${where}field "${f.key}" reads its coin from "${field}", not a reference field of the same form`);
        else for (const key of [decimals, symbol]) if (!ref.extra?.includes(key)) problems.push(`${where}field "${f.key}" reads "${key}" from "${field}", whose choices do not carry it (extra)`);
      } else if (where !== '') problems.push(`${where}field "${f.key}" has no record to read its coin from: name a reference field`);
      else if (spec.record) for (const key of [decimals, symbol]) if (!(key in spec.record.shape)) problems.push(`field "${f.key}" reads "${key}", not a field of the record`);
    }
  }
  return problems;
}

/** A state's label and colour, or the raw value. */
export function stateOf(spec: ResourceSpec, value: unknown): { value: string; label: string; color: string } {
  const v = String(value ?? '');
  return spec.states?.states.find((s) => s.value === v) ?? { value: v, label: v, color: 'gray' };
}

export const STATUS_OPTIONS = [
  { value: 'active', label: 'Active' },
  { value: 'inactive', label: 'Inactive' },
] as const;

export const statusSchema = z.enum(['active', 'inactive']);

/** Sort: a sortable column key, `-` prefix for descending. */
export function sortKeys(spec: ResourceSpec): string[] {
  return spec.columns.filter((c) => c.sortable).map((c) => c.key);
}

/** `YYYY-MM-DD` naming a day of the calendar (no 30 February, month 13 or year 0: the database refuses those). */
export function isCalendarDay(v: string): boolean {
  const t = Date.parse(`${v}T00:00:00Z`);
  return !Number.isNaN(t) && new Date(t).toISOString().slice(0, 10) === v && v >= '0001';
}

/** A day as a date filter or a report's period takes it. */
export const dayString = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}$/, 'Use YYYY-MM-DD')
  .refine(isCalendarDay, 'Not a day of the calendar');
const dateOnly = dayString;
const decimalString = z.string().regex(/^-?\d{1,18}$/, 'A whole number (at most 18 digits)');

/**
 * The list query of a resource, as it appears in the URL and the API:
 * `page, limit, cursor, sort, q`, and per filter:
 * equals `key=v`; oneOf `key=a,b`; range `key_min`, `key_max`;
 * dateRange `key_from`, `key_to` (inclusive days in the caller's time zone).
 */
export function listQuerySchema(spec: ResourceSpec) {
  const sorts = sortKeys(spec);
  const shape: Record<string, z.ZodType> = {
    page: z.coerce.number().int().min(1).max(1_000_000).default(1),
    limit: z.coerce.number().int().min(1).max(200).default(20),
    cursor: z.string().max(500).optional(),
    /** Keyset, backward: the page just before this cursor (Previous). */
    before: z.string().max(500).optional(),
    sort: z
      .string()
      .refine((v) => sorts.includes(v.replace(/^-/, '')), `Sort by one of: ${sorts.join(', ')}`)
      .default(spec.defaultSort),
    q: z.string().trim().max(200).optional(),
  };
  for (const f of spec.filters) {
    if (f.type === 'equals') {
      const options = Array.isArray(f.options) ? (f.options as readonly FilterOption[]).map((o) => o.value) : null;
      shape[f.key] = f.reference
        ? z.string().regex(/^\d{1,18}$/, `A ${f.label.toLowerCase()} id`).optional()
        : options
          ? z.string().refine((v) => options.includes(v), `One of: ${options.join(', ')}`).optional()
          : z.string().max(200).optional();
    }
    if (f.type === 'oneOf') {
      const allowed = f.options.map((o) => o.value);
      shape[f.key] = z
        .string()
        .max(500)
        .transform((v) => v.split(',').filter(Boolean))
        .refine((vals) => vals.every((v) => allowed.includes(v)), `One or more of: ${allowed.join(', ')}`)
        .optional();
    }
    if (f.type === 'range') {
      shape[`${f.key}_min`] = decimalString.optional();
      shape[`${f.key}_max`] = decimalString.optional();
    }
    if (f.type === 'dateRange') {
      shape[`${f.key}_from`] = dateOnly.optional();
      shape[`${f.key}_to`] = dateOnly.optional();
    }
  }
  return z.object(shape).strict();
}

/** Parsed list query as the server sees it. */
export type ListQuery = Record<string, unknown> & { page: number; limit: number; sort: string; cursor?: string; before?: string; q?: string };

/** Bulk action over selected ids, or over everything matching a list query. */
export const bulkActionBody = z
  .object({
    action: z.enum(['delete', 'status']),
    status: z.string().max(50).optional(),
    ids: z.array(z.string().regex(/^\d{1,18}$/, 'Invalid id')).max(10_000).optional(),
    /** When set, the action applies to every record matching this list query (filters and search only). */
    query: z.record(z.string(), z.string()).optional(),
  })
  .refine((b) => Boolean(b.ids?.length) !== (b.query !== undefined), { message: 'Give either ids or a query', path: ['ids'] })
  .refine((b) => b.action !== 'status' || !!b.status, { message: 'Choose a status', path: ['status'] });
export type BulkActionBody = z.infer<typeof bulkActionBody>;

export const idParam = z.object({ id: z.string().regex(/^\d{1,18}$/, 'Invalid id') });

/** Record fields as the API sends them: ids and timestamps are strings. */
export const recordFields = {
  id: z.string().regex(/^\d{1,18}$/),
  at: z.string(),
  atOrNull: z.string().nullable(),
  status: z.enum(['active', 'inactive']),
};

/** Building blocks shared by many declarations. */
export const sortOrderSchema = z.number({ error: 'A whole number' }).int('Whole number').min(0, 'Cannot be negative').max(100_000, 'At most 100000').default(0);
export const common = {
  statusColumn: { key: 'status', label: 'Status', type: 'status', sortable: true } as ColumnSpec<'status'>,
  orderColumn: { key: 'sortOrder', label: 'Order', type: 'number', sortable: true } as ColumnSpec<'sortOrder'>,
  createdColumn: { key: 'createdAt', label: 'Created', type: 'date', sortable: true } as ColumnSpec<'createdAt'>,
  statusFilter: { key: 'status', label: 'Status', type: 'oneOf', options: STATUS_OPTIONS } as FilterSpec<'status'>,
  createdFilter: { key: 'createdAt', label: 'Created', type: 'dateRange' } as FilterSpec<'createdAt'>,
  /** For archive resources: without it a list shows the live rows only. */
  archivedFilter: { key: 'archived', label: 'Archived', type: 'oneOf', options: [{ value: 'true', label: 'Archived' }, { value: 'false', label: 'Live' }] } as FilterSpec<'archived'>,
  archivedColumn: { key: 'archivedAt', label: 'Archived', type: 'date', sortable: false, hidden: true } as ColumnSpec<'archivedAt'>,
  statusField: { key: 'status', label: 'Status', type: 'select', options: STATUS_OPTIONS } as FormFieldSpec<'status'>,
  orderField: { key: 'sortOrder', label: 'Order', type: 'number' } as FormFieldSpec<'sortOrder'>,
};

/**
 * The update schema of a create schema: every field optional and, unlike
 * zod's `.partial()`, without defaults, so a PATCH changes only the fields
 * it names.
 */
export function updateSchemaOf<T extends z.ZodRawShape>(create: z.ZodObject<T>): z.ZodObject<{ [K in keyof T]: z.ZodOptional<z.ZodType<z.output<T[K]>, z.input<T[K]>>> }> {
  const shape: Record<string, z.ZodType> = {};
  for (const [key, field] of Object.entries(create.shape)) {
    let inner = field as z.ZodType;
    while (inner instanceof z.ZodDefault) inner = inner.unwrap() as z.ZodType;
    shape[key] = inner.optional();
  }
  return z.object(shape) as never;
}

/** Why this record cannot be deleted in its state (`deletableIn`), or null when it can. */
export function deleteRefusal(spec: ResourceSpec, record: Record<string, unknown>): string | null {
  if (!spec.deletableIn || !spec.states) return null;
  const status = String(record.status);
  if (spec.deletableIn.includes(status)) return null;
  const noun = spec.states.noun;
  const label = (v: string) => spec.states!.states.find((x) => x.value === v)?.label.toLowerCase() ?? v;
  const allowed = spec.deletableIn.map(label).join(' or ');
  return `${noun} is ${label(status)}: only ${/^[aeiou]/.test(allowed) ? 'an' : 'a'} ${allowed} ${noun.toLowerCase()} can be deleted`;
}
