import { AUDIT_ACTIONS, type AuditAction, type StateMachine } from '@pitboss/contract';
import { and, eq, getTableColumns, type SQL } from 'drizzle-orm';
import type { AnyPgColumn, PgTable, PgUpdateSetSource } from 'drizzle-orm/pg-core';
import type { Actor } from '../context.js';
import type { DbOrTx } from '../db/client.js';
import { notFound } from '../http/errors.js';
import { writeAudit } from '../lib/audit.js';
import { baseSelect, withBatchFields, type ApiRecord, type ResourceDef } from './define.js';
import { assertTransition } from './states.js';

/** A table whose rows move through a state machine: an `id` key and a `status` column. */
export type StatusTable = PgTable & { id: AnyPgColumn; status: AnyPgColumn };

/**
 * What moves through a declared machine, once for a module: the table whose `status` moves, the
 * machine (the contract's declaration, the one the buttons and the list's badges read), the name
 * its audit entries carry, and what an entry shows of the record before and after (the module's
 * audit view of a row, or the declaration's record: `recordView`).
 */
export interface Subject<T extends StatusTable, S extends string, A extends string> {
  resource: string;
  table: T;
  machine: StateMachine<S, A>;
  /** What a 404 calls a missing record (default: the machine's noun). */
  label?: string;
  /** The audit entry's view of a row (before and after the move), read in the transaction. */
  view(row: T['$inferSelect'], tx: DbOrTx): unknown;
}

/** A subject, typed by its table (its row type follows). */
export function defineSubject<T extends StatusTable, S extends string, A extends string>(subject: Subject<T, S, A>): Subject<T, S, A> {
  return subject;
}

/**
 * The audit view of a row as the resource's declaration reads it (its SELECT, batch fields and
 * `toRecord`): the view the action mechanism's entries have always carried for records without an
 * audit view of their own. `def` loads the declaration when first needed: a module's service names
 * its own declaration (which imports the service) by a dynamic import, so neither module's top
 * level runs before the other's.
 */
export const recordView = (def: () => ResourceDef | Promise<ResourceDef>) => async (row: { id: number }, tx: DbOrTx): Promise<ApiRecord> => {
  const d = await def();
  const [read] = await baseSelect(d, tx).where(and(d.baseWhere, eq(d.idColumn, row.id))).limit(1);
  if (!read) throw notFound(d.spec.label);
  await withBatchFields(d, tx, [read]);
  return d.toRecord(read);
};

/** Column values a move sets besides `status`: values, or SQL (`message_count + 1`). */
export type SetValues<T extends StatusTable> = { [K in keyof T['$inferInsert']]?: T['$inferInsert'][K] | SQL };

/** What the audit entry of a move says beyond before and after. */
export interface AuditNote {
  /** The entry's action, when it is not the move's (a first of two approvals is audited as `approve`). */
  as?: AuditAction;
  /** Fields added to the entry's `after` (the reason of a house-account change, the reversal's id). */
  extra?: object;
  /** The action's input, added to `after` as `input` when it has any field (as the action mechanism writes it). */
  input?: object;
  /** When the entry says it happened, if not now (the demo's history: `AuditEntry.at`). */
  at?: Date;
}

/** One move of a locked record: its action (default: the one it was locked for), the other columns it sets, its audit note. */
export interface Move<T extends StatusTable, A extends string> {
  action?: A;
  /** Columns set besides `status` (and `updatedAt`, set to now when the table has it and `set` does not). */
  set?: SetValues<T>;
  /** What the move does besides its row, in the same transaction, before the audit entry (ledger postings, mail, closing markets). */
  effects?(after: T['$inferSelect'], before: T['$inferSelect']): Promise<unknown>;
  /** The effects write the row again: it is read again for the audit entry and the answer. */
  rewrites?: boolean;
  audit?: AuditNote;
}

/** A record locked for a move, its state checked: `apply` makes the move (once). */
export interface Locked<T extends StatusTable, S extends string, A extends string> {
  before: T['$inferSelect'];
  /** The state the locked action leads to. */
  to: S;
  /**
   * Checks `move.action` (when it is not the locked one), updates the row, runs the move's
   * effects, writes the audit entry with the actor; returns the row after.
   */
  apply(actor: Actor, move?: Move<T, A>): Promise<T['$inferSelect']>;
}

/**
 * Locks the record (`SELECT … FOR UPDATE`: two admins, or an admin and a job, acting at once queue
 * on it) and checks that `action` may be taken from its state: a 409 naming the state otherwise
 * ("Withdrawal is already approved"), a 404 when there is no such record. The first half of
 * `transition`, for a service whose move depends on what it finds once the record is locked (a
 * withdrawal's first of two approvals, or its only one).
 */
export async function lockFor<T extends StatusTable, S extends string, A extends string>(tx: DbOrTx, subject: Subject<T, S, A>, id: number, action: NoInfer<A>): Promise<Locked<T, S, A>> {
  const table = subject.table as StatusTable;
  const [before] = Number.isSafeInteger(id) ? ((await tx.select().from(table).where(eq(table.id, id)).for('update')) as T['$inferSelect'][]) : [];
  if (!before) throw notFound(subject.label ?? subject.machine.noun);
  const current = (before as { status: S }).status;
  const to = assertTransition(subject.machine, action, current);
  let applied = false;
  const apply = async (actor: Actor, move: Move<T, A> = {}): Promise<T['$inferSelect']> => {
    if (applied) throw new Error(`${subject.resource} ${id}: a locked record moves once`);
    applied = true;
    const name = move.action ?? action;
    const status = name === action ? to : assertTransition(subject.machine, name, current);
    const auditAs = move.audit?.as ?? name;
    if (!Object.hasOwn(AUDIT_ACTIONS, auditAs)) throw new Error(`${subject.resource}: "${auditAs}" is no audit action: name the one it is audited as (AuditNote.as)`);
    // Read before the update: a declaration's record may show more than the row.
    const beforeView = await subject.view(before, tx);
    const values: Record<string, unknown> = { ...move.set, status };
    if (values.updatedAt === undefined && 'updatedAt' in getTableColumns(table)) values.updatedAt = new Date();
    let [after] = (await tx.update(table).set(values as PgUpdateSetSource<StatusTable>).where(eq(table.id, id)).returning()) as T['$inferSelect'][];
    await move.effects?.(after!, before);
    // The effects wrote the row again (a kill switch's count of what came back): read it as it is.
    if (move.rewrites) [after] = (await tx.select().from(table).where(eq(table.id, id))) as T['$inferSelect'][];
    const view = await subject.view(after!, tx);
    const input = move.audit?.input && Object.keys(move.audit.input).length ? { input: move.audit.input } : undefined;
    await writeAudit(tx, actor, {
      action: auditAs as AuditAction, resource: subject.resource, recordId: id, before: beforeView, ...(move.audit?.at ? { at: move.audit.at } : {}),
      after: move.audit?.extra || input ? { ...(view as object), ...move.audit?.extra, ...input } : view,
    });
    return after!;
  };
  return { before, to, apply };
}

/** What `transition` does: the move, and the service's own rules once the record is locked. */
export interface TransitionSteps<T extends StatusTable, A extends string> extends Omit<Move<T, A>, 'action' | 'set'> {
  /** The service's own rules once the record is locked and its state checked (a blocked destination): throw to refuse. */
  check?(before: T['$inferSelect']): Promise<void> | void;
  /** Columns set besides `status`, or how to compute them from the record as it was. */
  set?: SetValues<T> | ((before: T['$inferSelect']) => SetValues<T> | Promise<SetValues<T>>);
}

/**
 * One state change of one record, the way every service makes it, whoever calls it (an admin
 * through the API, the platform API, a job): lock the row, check the declared machine (409 naming
 * the state), the service's own checks, update `status` (with the service's columns and
 * `updatedAt`), its effects, then one audit entry with the actor (before, after, the input;
 * secrets redacted by `writeAudit`). The action mechanism (`runAction`) neither locks nor checks
 * nor audits a move again.
 */
export async function transition<T extends StatusTable, S extends string, A extends string>(
  tx: DbOrTx, actor: Actor, subject: Subject<T, S, A>, id: number, action: NoInfer<A>, steps: TransitionSteps<T, NoInfer<A>> = {},
): Promise<{ before: T['$inferSelect']; after: T['$inferSelect'] }> {
  const locked = await lockFor(tx, subject, id, action);
  await steps.check?.(locked.before);
  const set = typeof steps.set === 'function' ? await steps.set(locked.before) : steps.set;
  const after = await locked.apply(actor, { ...(set ? { set } : {}), ...(steps.effects ? { effects: steps.effects } : {}), ...(steps.rewrites ? { rewrites: true } : {}), ...(steps.audit ? { audit: steps.audit } : {}) });
  return { before: locked.before, after };
}
