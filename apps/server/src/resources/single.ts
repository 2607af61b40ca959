import { registerImageUpload } from '../modules/uploads/routes.js';
import { singleEndpointDefs, singleFields, type SingleSpec } from '@pitboss/contract';
import type { AdminActor, AppContext } from '../context.js';
import type { DbOrTx } from '../db/client.js';
import { ok } from '../http/envelope.js';
import { route } from '../http/route.js';
import type { App } from '../http/types.js';
import { writeAudit } from '../lib/audit.js';
import type { ApiRecord, Row } from './define.js';

/**
 * The server half of a single-record declaration: how to load the one row (creating it with its
 * defaults the first time), turn it into the record, and apply a validated patch. The endpoints,
 * their rights, the row lock and the audit entry come from `registerSingle`.
 */
export interface SingleDef<R extends Row = Row> {
  spec: SingleSpec;
  /** The one row; `forUpdate` locks it for the write's transaction. */
  load(db: DbOrTx, options?: { forUpdate?: boolean }): Promise<R>;
  toRecord(row: R): ApiRecord;
  /** Applies the patch (only the fields it names) and returns the new row. */
  update(tx: DbOrTx, actor: AdminActor, patch: Record<string, unknown>, before: R): Promise<R>;
  afterWrite?(): void;
}

export function defineSingle<R extends Row>(def: SingleDef<R>): SingleDef<R> {
  return def;
}

/** Reads the record and applies a patch as an actor: the same write the endpoint makes, for jobs and tests. */
export async function updateSingle<R extends Row>(def: SingleDef<R>, ctx: AppContext, actor: AdminActor, patch: Record<string, unknown>): Promise<ApiRecord> {
  const record = await ctx.db.transaction(async (tx) => {
    const before = await def.load(tx, { forUpdate: true });
    const changed = Object.fromEntries(Object.entries(patch).filter(([, v]) => v !== undefined));
    if (Object.keys(changed).length === 0) return def.toRecord(before);
    const after = await def.update(tx, actor, changed, before);
    await writeAudit(tx, actor, { action: 'update', resource: def.spec.name, recordId: String(def.toRecord(after)._id), before: def.toRecord(before), after: def.toRecord(after) });
    return def.toRecord(after);
  });
  def.afterWrite?.();
  return record;
}

/** A declaration the server cannot serve fails at start: every form field is a field of the record and of the update. */
function checkSingle(spec: SingleSpec): void {
  const updateShape = (spec.update as { shape?: Record<string, unknown> }).shape;
  const problems = singleFields(spec).flatMap((f) => {
    const top = f.key.split('.')[0]!;
    return [
      ...(top in spec.record.shape ? [] : [`field "${f.key}" is not in the record`]),
      ...(updateShape && !(top in updateShape) ? [`field "${f.key}" is not in the update schema`] : []),
    ];
  });
  if (problems.length) throw new Error(`Single resource ${spec.name}: ${problems.join('; ')}`);
}

export function registerSingle<R extends Row>(app: App, ctx: AppContext, def: SingleDef<R>): void {
  const { spec } = def;
  checkSingle(spec);
  const endpoints = singleEndpointDefs(spec);
  // `?fields=a,b` narrows a read to those fields (and `_id`).
  route(app, endpoints.read, async (req) => {
    const record = def.toRecord(await def.load(ctx.db));
    const fields = (req.query as { fields?: string }).fields;
    if (!fields) return ok(record);
    const wanted = new Set(fields.split(',').filter(Boolean));
    return ok(Object.fromEntries(Object.entries(record).filter(([k]) => k === '_id' || wanted.has(k))));
  });
  if (endpoints.images) registerImageUpload(app, ctx, endpoints.images);
  route(app, endpoints.update, async (req) => ok(await updateSingle(def, ctx, req.actor(), req.body as Record<string, unknown>), `${spec.label} updated`));
}
