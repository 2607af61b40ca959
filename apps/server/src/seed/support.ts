import { eq, inArray, sql } from 'drizzle-orm';
import type { Logger } from 'pino';
import { adminActor } from '../context.js';
import type { Db } from '../db/client.js';
import { admins, appMeta, mailOutbox, supportCategories, ticketAttachments, ticketMessages, tickets, users } from '../db/schema.js';
import { createMailer } from '../mail/mailer.js';
import { makePng } from '../lib/png.js';
import { addUserMessage, assignTicket, closeTicket, createTicket, replyToTicket, storeAttachments } from '../modules/tickets/service.js';
import { runNotificationConditions } from '../modules/notifications/job.js';

/** The platform reporting what its users write (the demo's tickets come in as the platform API brings them). */
const PLATFORM = { kind: 'platform', ip: '10.0.0.5' } as const;

const CONVERSATIONS: { subject: string; category: string; priority: 'low' | 'normal' | 'high' | 'urgent'; user: string[]; reply: string[]; note?: string; picture?: boolean }[] = [
  { subject: 'Withdrawal stuck in review', category: 'Withdrawals', priority: 'high', user: ['I asked for a USDC withdrawal two days ago and it still says awaiting review.', 'Any news? I need the funds for rent.'], reply: ['<p>Thanks for waiting. Your withdrawal was held for a routine address check; it is <strong>approved</strong> now and should arrive within the hour.</p>'], note: 'Address was on the watch list last month; cleared by Leo after checking the on-chain history.' },
  { subject: 'Deposit not credited', category: 'Deposits', priority: 'urgent', user: ['I sent 250 USDC from Phantom, the transaction is confirmed on the explorer but my balance is 0.'], reply: ['<p>We can see the transaction. It needed one more confirmation on our side; your balance is updated.</p>'], picture: true },
  { subject: 'How are booster pack odds decided?', category: 'Cards & packs', priority: 'low', user: ['Is the legendary drop rate the same for every pack?'], reply: ['<p>Each pack shows its own tier odds on its page. Draws use a committed server seed that you can verify after opening.</p>'] },
  { subject: 'Market resolved the wrong way?', category: 'Markets', priority: 'high', user: ['The rain market resolved NO but the weather service reported 12 mm.'], reply: [], note: 'Checked the settlement source: the station reported 0.8 mm at the cutoff; the 12 mm came after close. Resolution stands. Draft a clear answer with the source link.' },
  { subject: 'Cannot log in after changing phone', category: 'Account', priority: 'normal', user: ['My authenticator app was on my old phone.'], reply: ['<p>For your security we need to confirm it is you: please reply with the last deposit amount and its date.</p>'] },
  { subject: 'Trading fee higher than shown', category: 'Markets', priority: 'normal', user: ['I was charged 2% instead of 1% on my last trade.'], reply: ['<p>The 1% is the taker fee per side; your order crossed twice because it was split across two price levels. The breakdown is in your trade history.</p>'] },
  { subject: 'Redeem code says already used', category: 'Cards & packs', priority: 'normal', user: ['I bought a pack in the store on Main Street and the code is refused.'], reply: [], picture: true },
  { subject: 'Close my account', category: 'Account', priority: 'low', user: ['Please delete my account and data.'], reply: ['<p>Your request is registered. Withdraw any remaining balance first; we delete the account within 30 days as our privacy policy says.</p>'] },
  { subject: 'Price chart not updating', category: 'Other', priority: 'low', user: ['The chart on the election market is frozen since this morning.'], reply: ['<p>Thanks! It was a display issue after a release; it is fixed now.</p>'] },
  { subject: 'Withdrawal to exchange address refused', category: 'Withdrawals', priority: 'normal', user: ['It says the address is blocked.'], reply: [], note: 'The address belongs to a sanctioned mixer (blocked wallet list). Do not disclose the list; suggest a personal wallet.' },
];
const USER_FOLLOW_UPS = ['Thanks, that solved it.', 'Still not working for me.', 'OK, understood.', 'Could you check again please?'];

/**
 * Support tickets in every state across the support categories (once per database): opened through
 * the ticket service as the platform API would, replied to and noted by the demo's support
 * sub-admins (internal notes included), a few with PNG screenshots drawn in code, assigned, some
 * closed, some waiting for an answer for hours; then backdated over the last weeks. The replies'
 * mails are kept in the outbox as held (they belong to the demo's past: nothing is sent for them).
 * Then one run of the notification conditions, so the bell has something to show.
 */
export async function seedSupport(db: Db, log: Pick<Logger, 'info'>, opts: { dataDir?: string } = {}): Promise<boolean> {
  const [done] = await db.select().from(appMeta).where(eq(appMeta.key, 'demo_support_seeded_at'));
  if (done) return false;
  const agents = await db.select().from(admins).where(inArray(admins.email, ['maya.support@pitboss.local', 'noah.support@pitboss.local']));
  const categories = await db.select().from(supportCategories);
  const players = await db.select({ id: users.id }).from(users).where(eq(users.status, 'active')).orderBy(users.id).limit(60);
  if (agents.length === 0 || players.length === 0) return false;
  const started = Date.now();
  const mailer = createMailer({ db, smtpUrl: undefined, from: 'demo', log: { info: () => undefined, warn: () => undefined, error: () => undefined } });
  const categoryId = (name: string) => categories.find((c) => c.name.toLowerCase().includes(name.toLowerCase().split(' ')[0]!))?.id ?? categories[0]?.id ?? null;
  const created: number[] = [];
  let n = 0;
  for (let round = 0; round < 3; round++) {
    for (const [i, c] of CONVERSATIONS.entries()) {
      n++;
      const user = players[(i * 7 + round * 13) % players.length]!;
      const agent = agents[(i + round) % agents.length]!;
      const actor = adminActor(agent, '81.2.69.142');
      // One transaction per ticket: its whole story, through the services.
      await db.transaction(async (tx) => {
        const ticket = await createTicket(tx, PLATFORM, { userId: user.id, categoryId: categoryId(c.category), subject: c.subject, message: c.user[0]!, priority: c.priority });
        created.push(ticket.id);
        // Roughly: a third stay open (some unassigned), a third answered, a third closed.
        const fate = (i + round) % 3;
        if (fate === 0 && n % 2 === 0) return;
        await assignTicket(tx, actor, { ticketId: ticket.id, adminId: agent.id });
        if (c.note) await replyToTicket(tx, actor, { mailer }, { ticketId: ticket.id, body: `<p>${c.note}</p>`, internal: true, attachmentIds: [] });
        if (c.picture && opts.dataDir && round === 0) {
          const png = makePng(48, 32, (x, y) => [(x * 5) % 256, (y * 8) % 256, ((x + y) * 3) % 256]);
          const [file] = await storeAttachments(tx, actor, opts.dataDir, { ticketId: ticket.id, files: [{ filename: 'explorer-screenshot.png', bytes: png }] });
          await replyToTicket(tx, actor, { mailer }, { ticketId: ticket.id, body: '<p>Screenshot of what we see on our side, for the record.</p>', internal: true, attachmentIds: [file!.id] });
        }
        for (const r of c.reply) await replyToTicket(tx, actor, { mailer }, { ticketId: ticket.id, body: r, internal: false, attachmentIds: [] });
        // Open again: the user wrote back after the answer (or is still waiting for the first one).
        if (fate === 0) {
          if (c.reply.length && c.user[1]) await addUserMessage(tx, PLATFORM, { ticketId: ticket.id, userId: user.id, message: c.user[1] });
          return;
        }
        if (fate === 2) {
          if (c.reply.length) await addUserMessage(tx, PLATFORM, { ticketId: ticket.id, userId: user.id, message: USER_FOLLOW_UPS[(i + round) % 3 === 2 ? 0 : 2]! });
          await closeTicket(tx, actor, { ticketId: ticket.id });
        }
      });
    }
  }
  // Spread over the last three weeks, oldest first; each ticket's messages an hour or so apart.
  await db.transaction(async (tx) => {
    for (const [k, id] of created.entries()) {
      const shiftMinutes = Math.round((created.length - k) * 21 * 24 * 60 / created.length);
      await tx.execute(sql`update ticket_messages set created_at = created_at - make_interval(mins => ${shiftMinutes}::int) + make_interval(mins => ((id - (select min(id) from ticket_messages m where m.ticket_id = ${id})) * 47)::int)
                           where ticket_id = ${id}`);
      await tx.execute(sql`update ticket_attachments set created_at = created_at - make_interval(mins => ${shiftMinutes}::int) where ticket_id = ${id}`);
      await tx.execute(sql`update tickets t set created_at = (select min(created_at) from ticket_messages m where m.ticket_id = t.id),
                             last_activity_at = (select max(created_at) from ticket_messages m where m.ticket_id = t.id and not m.internal),
                             waiting_since = case when t.waiting_since is null then null else (select min(created_at) from ticket_messages m where m.ticket_id = t.id and m.author = 'user' and m.id > coalesce((select max(id) from ticket_messages r where r.ticket_id = t.id and r.author = 'admin' and not r.internal), 0)) end,
                             closed_at = case when t.closed_at is null then null else (select max(created_at) from ticket_messages m where m.ticket_id = t.id) + interval '2 hours' end
                           where t.id = ${id}`);
    }
    await tx.update(mailOutbox).set({ status: 'held' }).where(eq(mailOutbox.templateKey, 'ticket_reply'));
    await tx.execute(sql`update notifications set created_at = t.created_at from tickets t where notifications.kind = 'ticket_new' and notifications.record_key = 'ticket:' || t.id`);
    // The money seed's large deposits were notified as they were recorded; their dates were set afterwards.
    await tx.execute(sql`update notifications set created_at = d.created_at from deposits d where notifications.kind = 'large_deposit' and notifications.record_key = 'deposit:' || d.id`);
    await tx.insert(appMeta).values({ key: 'demo_support_seeded_at', value: new Date().toISOString() });
  });
  await runNotificationConditions(db, { waitingMinutes: 240 });
  const [count] = await db.select({ n: sql<number>`count(*)::int` }).from(tickets);
  const [notes] = await db.select({ n: sql<number>`count(*)::int` }).from(ticketMessages).where(eq(ticketMessages.internal, true));
  const [files] = await db.select({ n: sql<number>`count(*)::int` }).from(ticketAttachments);
  log.info(`demo support seeded in ${((Date.now() - started) / 1000).toFixed(1)} s: ${count?.n} tickets, ${notes?.n} internal notes, ${files?.n} attachments`);
  return true;
}
