import { eq } from 'drizzle-orm';
import type { Logger } from 'pino';
import type { Db } from '../db/client.js';
import { admins, appMeta, auditLog, cmsPages } from '../db/schema.js';
import { sanitizeCmsBody } from '../modules/cms-pages/resource.js';

const META_KEY = 'demo_content_seeded_at';

/** The demo's CMS pages: three published pages the platform links to, and one draft being written. */
const PAGES = [
  {
    slug: 'terms',
    title: 'Terms of service',
    status: 'published',
    metaTitle: 'Terms of service · Pitboss',
    metaDescription: 'The rules for trading prediction markets and collecting cards on Pitboss.',
    body:
      '<h2>1. Who may use Pitboss</h2><p>You must be at least 18 years old and allowed to trade event contracts where you live. One account per person.</p>' +
      '<h2>2. Your account</h2><p>Keep your password and wallet safe. We never ask for your seed phrase. Tell <a href="mailto:support@pitboss.local">support</a> at once if you think someone else used your account.</p>' +
      '<h2>3. Markets</h2><p>Each market is a YES/NO question with written rules and a settlement source. A market settles by its rules; a market that cannot be resolved is <strong>voided</strong> and positions are refunded at cost.</p>' +
      '<h2>4. Deposits and withdrawals</h2><ul><li>Deposits are credited once confirmed on chain.</li><li>Withdrawals are reviewed; a fee per coin applies and is shown before you confirm.</li><li>We may refuse a withdrawal to a blocked address.</li></ul>' +
      '<h2>5. Changes</h2><p>We announce changes to these terms at least 14 days before they apply.</p>',
  },
  {
    slug: 'privacy',
    title: 'Privacy policy',
    status: 'published',
    metaTitle: 'Privacy policy · Pitboss',
    metaDescription: 'What Pitboss stores about you, why, and for how long.',
    body:
      '<h2>What we store</h2><ul><li>Your username, email and country.</li><li>Your wallet addresses and transactions with us.</li><li>Sign-in records (address and device) to protect your account.</li></ul>' +
      '<h2>Why</h2><p>To run your account, settle markets, meet our legal duties (anti-money-laundering) and keep the platform safe.</p>' +
      '<h2>How long</h2><p>Transaction records are kept for 5 years after your account closes; sign-in records for 1 year.</p>' +
      '<h2>Your rights</h2><p>Ask for a copy or deletion of your data at <a href="mailto:privacy@pitboss.local">privacy@pitboss.local</a>.</p>',
  },
  {
    slug: 'about',
    title: 'About Pitboss',
    status: 'published',
    metaTitle: '',
    metaDescription: 'Prediction markets and collectible cards, on Solana.',
    body:
      '<p>Pitboss is a place to trade on the outcome of real events — elections, sports, crypto prices — and to collect cards.</p>' +
      '<p>Prices are set by traders: a YES share at 62¢ means the market gives the event about a 62% chance. Every market names its rules and settlement source up front.</p>' +
      '<blockquote>Built by a small team that likes well-run markets.</blockquote>',
  },
  {
    slug: 'responsible-trading',
    title: 'Responsible trading',
    status: 'draft',
    metaTitle: '',
    metaDescription: '',
    body:
      '<p><em>Draft — waiting for legal review.</em></p><h2>Set your limits</h2><p>You can set a deposit limit per day, week or month from your profile. Lowering it applies at once; raising it after 24 hours.</p>' +
      '<h2>Take a break</h2><p>Pause your account for 24 hours up to 6 months.</p>',
  },
] as const;

/** Runs once per database (app_meta), in demo mode, after the back-office seed. */
export async function seedContent(db: Db, log: Pick<Logger, 'info'>): Promise<boolean> {
  const [done] = await db.select().from(appMeta).where(eq(appMeta.key, META_KEY));
  if (done) return false;
  const [root] = await db.select().from(admins).where(eq(admins.role, 'superadmin')).limit(1);
  await db.transaction(async (tx) => {
    for (const [i, p] of PAGES.entries()) {
      const createdAt = new Date(Date.now() - (40 - i * 7) * 86_400_000);
      const publishedAt = p.status === 'published' ? new Date(createdAt.getTime() + 86_400_000) : null;
      const [row] = await tx
        .insert(cmsPages)
        .values({ slug: p.slug, title: p.title, body: sanitizeCmsBody(p.body), status: p.status, metaTitle: p.metaTitle, metaDescription: p.metaDescription, publishedAt, createdAt, updatedAt: publishedAt ?? createdAt })
        .onConflictDoNothing()
        .returning();
      if (!row) continue;
      const actor = { adminId: root?.id ?? null, adminEmail: root?.email ?? 'system', ip: '127.0.0.1' };
      await tx.insert(auditLog).values({ ...actor, action: 'create', resource: 'cms-pages', recordId: String(row.id), after: { slug: p.slug, title: p.title }, createdAt });
      if (publishedAt) await tx.insert(auditLog).values({ ...actor, action: 'publish', resource: 'cms-pages', recordId: String(row.id), after: { status: 'published' }, createdAt: publishedAt });
    }
    await tx.insert(appMeta).values({ key: META_KEY, value: new Date().toISOString() });
  });
  log.info('demo content seeded: CMS pages');
  return true;
}
