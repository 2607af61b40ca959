import { desc, eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { mailOutbox } from '../db/schema.js';
import { approveWithdrawal, rejectWithdrawal, requestWithdrawal } from '../modules/withdrawals/service.js';
import type { CoinRow } from '../modules/coins/table.js';
import type { UserRow } from '../modules/users/table.js';
import { fund, makeCoin, makeUser, randomAddress, setSiteSettings, type MoneyFixture, moneyFile } from '../../test/money-helpers.js';

/** The money services mail the platform user: deposit confirmed, withdrawal approved (by an admin or automatically) or rejected. */
let f: MoneyFixture;
let coin: CoinRow;
let user: UserRow;
moneyFile((m) => ({ f } = m));
beforeAll(async () => {
  coin = await makeCoin(f, { decimals: 6, minWithdrawal: 1_000_000n, withdrawalFee: 250_000n });
  user = await makeUser(f);
});

const lastMail = async () => (await f.db.select().from(mailOutbox).where(eq(mailOutbox.toAddress, user.email)).orderBy(desc(mailOutbox.id)).limit(1))[0];
const mailsTo = async () => f.db.select().from(mailOutbox).where(eq(mailOutbox.toAddress, user.email));

describe('mail to platform users about their money', () => {
  it('a confirmed deposit mails the user the amount credited', async () => {
    await fund(f, user.id, coin.id, 50_000_000n);
    const mail = await lastMail();
    expect(mail).toMatchObject({ templateKey: 'deposit_confirmed', status: 'pending' });
    expect(mail!.subject).toBe(`Your Pitboss deposit of 50 ${coin.symbol} is confirmed`);
    expect(mail!.html).toContain(user.username);
  });

  it('approving and rejecting a withdrawal mail the user; a refused action mails nothing', async () => {
    await setSiteSettings(f.db, { withdrawalsEnabled: true });
    const w1 = await f.db.transaction((tx) => requestWithdrawal(tx, f.platform, { userId: user.id, coin: coin.id, amount: 2_000_000n, toAddress: randomAddress() }));
    await f.db.transaction((tx) => approveWithdrawal(tx, f.admin, w1.id));
    const approved = await lastMail();
    expect(approved).toMatchObject({ templateKey: 'withdrawal_approved' });
    expect(approved!.subject).toBe(`Your Pitboss withdrawal of 2 ${coin.symbol} was approved`);
    expect(approved!.html).toContain(w1.toAddress);

    const w2 = await f.db.transaction((tx) => requestWithdrawal(tx, f.platform, { userId: user.id, coin: coin.id, amount: 3_000_000n, toAddress: randomAddress() }));
    await f.db.transaction((tx) => rejectWithdrawal(tx, f.admin, w2.id, { reasonCode: 'duplicate', reason: 'Address <not> verified' }));
    const rejected = await lastMail();
    expect(rejected).toMatchObject({ templateKey: 'withdrawal_rejected' });
    expect(rejected!.html).toContain('Reason: Address &lt;not&gt; verified');
    // Without a note the user reads words meant for them, and never why a suspicion was raised.
    for (const [reasonCode, shown] of [['identity_check', 'We need to verify your identity before this withdrawal.'], ['suspected_fraud', 'Please contact support for the details.']] as const) {
      const w = await f.db.transaction((tx) => requestWithdrawal(tx, f.platform, { userId: user.id, coin: coin.id, amount: 1_000_000n, toAddress: randomAddress() }));
      await f.db.transaction((tx) => rejectWithdrawal(tx, f.admin, w.id, { reasonCode }));
      const mail = await lastMail();
      expect(mail!.html).toContain(`Reason: ${shown}`);
      expect(mail!.html).not.toMatch(/fraud/i);
    }

    const before = (await mailsTo()).length;
    await expect(f.db.transaction((tx) => approveWithdrawal(tx, f.admin, w2.id))).rejects.toMatchObject({ status: 409 });
    expect((await mailsTo()).length).toBe(before);
  });

  it('delivery reaches the user through the transport', async () => {
    await f.s.mailer.deliverPending();
    const to = f.s.mail.filter((m) => m.to === user.email).map((m) => m.subject);
    expect(to).toEqual(expect.arrayContaining([expect.stringMatching(/deposit of 50 .* is confirmed/), expect.stringMatching(/withdrawal of 2 .* was approved/), expect.stringMatching(/was rejected/)]));
  });
});
