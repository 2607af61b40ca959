import { marketResolveInput, marketStates, RESOLUTION_REJECT_REASONS, type MarketResolveInput, type ReasonInput } from '@pitboss/contract';
import { and, eq } from 'drizzle-orm';
import type { Actor } from '../../context.js';
import type { DbOrTx } from '../../db/client.js';
import { badRequest, conflict, forbidden, notFound } from '../../http/errors.js';
import { writeAudit } from '../../lib/audit.js';
import { assertTransition } from '../../resources/states.js';
import { closeRejected, openApproval, recordFirstApproval, recordSecondApproval } from '../approvals/service.js';
import { FieldErrors, requireReasonCode } from '../ledger/input.js';
import { markets, type MarketRow } from '../markets/table.js';
import { loadSiteSettings } from '../site-settings/service.js';
import { resolveMarket, type Settlement } from './service.js';
import { resolutionProposals, type ResolutionProposalRow } from './table.js';

/*
 * Two admins to resolve (docs/markets.md, "Two admins to resolve"). With the site setting on, a
 * market's Resolve records a proposal (result, source, evidence and its links) and a first approval
 * (the shared queue "Awaiting my approval", a notification); the market stays closed. Another admin
 * holding Markets › resolve confirms it once the dispute window has ended: the settlement runs then,
 * once (the market's row lock and state check, and the one open proposal, see to that). Either admin
 * may reject it meanwhile, with a reason code; the market can be resolved (proposed) again.
 */

const SUBJECT = { resource: 'markets', action: 'resolve', restriction: 'Markets', right: 'resolve' } as const;

/** Whether resolving proposes (the site setting), and the dispute window in hours. */
export async function resolutionPolicy(tx: DbOrTx): Promise<{ twoAdmins: boolean; disputeHours: number }> {
  const s = await loadSiteSettings(tx);
  return { twoAdmins: s.resolutionTwoAdmins, disputeHours: s.resolutionDisputeHours };
}

function parseResolveInput(body: unknown): MarketResolveInput {
  const parsed = marketResolveInput.safeParse(body);
  if (parsed.success) return parsed.data;
  const errors: Record<string, string> = {};
  for (const issue of parsed.error.issues) errors[issue.path.map(String).join('.') || 'result'] ??= issue.message;
  throw badRequest(Object.values(errors)[0]!, errors);
}

async function lockMarket(tx: DbOrTx, id: number): Promise<MarketRow> {
  const [row] = Number.isSafeInteger(id) ? await tx.select().from(markets).where(eq(markets.id, id)).for('update') : [];
  if (!row) throw notFound('Market');
  return row;
}

async function openProposal(tx: DbOrTx, marketId: number): Promise<ResolutionProposalRow | null> {
  const [row] = await tx.select().from(resolutionProposals).where(and(eq(resolutionProposals.marketId, marketId), eq(resolutionProposals.status, 'open'))).for('update');
  return row ?? null;
}

const proposalView = (p: ResolutionProposalRow) => ({
  proposalId: p.id, result: p.result, source: p.source, evidence: p.evidence, evidenceUrls: p.evidenceUrls, disputeEndsAt: p.disputeEndsAt, status: p.status,
  reasonCode: p.reasonCode, reason: p.reason,
});

/** Proposes a closed market's resolution (an admin holding the right); nothing is paid yet. */
export async function proposeResolution(tx: DbOrTx, actor: Actor, marketId: number, body: unknown, disputeHours: number, now = new Date()): Promise<ResolutionProposalRow> {
  if (actor.kind !== 'admin') throw forbidden('Only an admin can propose a resolution');
  const input = parseResolveInput(body);
  const market = await lockMarket(tx, marketId);
  assertTransition(marketStates, input.result === 'VOID' ? 'void' : 'resolve', market.status);
  const already = await openProposal(tx, marketId);
  if (already) throw conflict(`A resolution of ${market.ticker} (${already.result}) is already proposed: confirm or reject it first`);
  const [row] = await tx
    .insert(resolutionProposals)
    .values({
      marketId, result: input.result, source: input.source, evidence: input.evidence, evidenceUrls: input.evidenceUrls, proposedBy: actor.admin.id,
      disputeEndsAt: new Date(now.getTime() + disputeHours * 3_600_000), createdAt: now,
    })
    .returning();
  await recordFirstApproval(tx, actor, {
    ...SUBJECT, recordId: marketId, summary: `Resolve ${market.ticker} ${input.result}`, link: `/update-market/${marketId}`, notifyKind: 'resolution_second_approval',
  });
  await writeAudit(tx, actor, { action: 'propose', resource: 'markets', recordId: marketId, after: proposalView(row!) });
  return row!;
}

/**
 * The second admin's confirmation: refused to the proposer (403) and before the dispute window ends
 * (409, saying when); then the market settles as proposed, in this transaction.
 */
export async function confirmResolution(tx: DbOrTx, actor: Actor, marketId: number, now = new Date()): Promise<Settlement> {
  const market = await lockMarket(tx, marketId);
  const proposal = await openProposal(tx, marketId);
  if (!proposal) throw conflict(`No resolution of ${market.ticker} is waiting for confirmation`);
  const approval = await openApproval(tx, { ...SUBJECT, recordId: marketId });
  if (!approval) throw new Error(`Resolution proposal ${proposal.id} has no open approval`);
  await recordSecondApproval(tx, actor, approval);
  if (now.getTime() < proposal.disputeEndsAt.getTime()) {
    throw conflict(`The dispute window of ${market.ticker} ends at ${proposal.disputeEndsAt.toISOString().slice(0, 16).replace('T', ' ')} UTC: it can be confirmed from then`);
  }
  const settled = await resolveMarket(tx, actor, marketId, {
    result: proposal.result, source: proposal.source, evidence: proposal.evidence, evidenceUrls: proposal.evidenceUrls, confirm: true,
  });
  const [after] = await tx
    .update(resolutionProposals)
    .set({ status: 'confirmed', decidedBy: actor.kind === 'admin' ? actor.admin.id : null, decidedAt: now })
    .where(eq(resolutionProposals.id, proposal.id))
    .returning();
  await writeAudit(tx, actor, { action: 'confirm', resource: 'markets', recordId: marketId, before: proposalView(proposal), after: proposalView(after!) });
  return settled;
}

/** Rejects the open proposal (either admin, during or after the window): nothing is paid, the market stays closed. */
export async function rejectResolution(tx: DbOrTx, actor: Actor, marketId: number, input: ReasonInput, now = new Date()): Promise<ResolutionProposalRow> {
  if (actor.kind !== 'admin') throw forbidden('Only an admin can reject a resolution');
  const errors = new FieldErrors();
  const { reasonCode, note } = requireReasonCode(errors, input, RESOLUTION_REJECT_REASONS);
  errors.throwIfAny();
  const market = await lockMarket(tx, marketId);
  const proposal = await openProposal(tx, marketId);
  if (!proposal) throw conflict(`No resolution of ${market.ticker} is waiting for confirmation`);
  await closeRejected(tx, actor, { ...SUBJECT, recordId: marketId });
  const [after] = await tx
    .update(resolutionProposals)
    .set({ status: 'rejected', decidedBy: actor.admin.id, decidedAt: now, reasonCode, reason: note })
    .where(eq(resolutionProposals.id, proposal.id))
    .returning();
  await writeAudit(tx, actor, { action: 'reject', resource: 'markets', recordId: marketId, before: proposalView(proposal), after: proposalView(after!) });
  return after!;
}
