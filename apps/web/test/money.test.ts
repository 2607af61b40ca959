import { coinsResource, rewardCardsResource, usersResource, type FormFieldSpec } from '@pitboss/contract';
import { describe, expect, it } from 'vitest';
import { valuesFromRecord } from '../src/resources/formValues';
import { moneyBody } from '../src/resources/money';

const adjustFields: readonly FormFieldSpec[] = usersResource.actions!.find((a) => a.name === 'adjust-balance')!.fields!;
const USDC = { decimals: 6, symbol: 'USDC' };
const SOL = { decimals: 9, symbol: 'SOL' };

describe('money fields: what is typed and what is posted', () => {
  it('posts 5 USDC as 5,000,000 minor units and 0.000000001 SOL as 1', () => {
    expect(moneyBody(adjustFields, { coinId: '1', amount: '5', reason: 'Goodwill' }, { amount: USDC }, {})).toEqual({ ok: true, body: { coinId: '1', amount: '5000000', reason: 'Goodwill' } });
    expect(moneyBody(adjustFields, { coinId: '2', amount: '-0.000000001' }, { amount: SOL }, {})).toEqual({ ok: true, body: { coinId: '2', amount: '-1' } });
  });

  it('refuses on the field: too many decimals, zero, no coin chosen; an empty amount is the schema’s to say', () => {
    expect(moneyBody(adjustFields, { amount: '5.1234567' }, { amount: USDC }, {})).toEqual({ ok: false, errors: { amount: 'USDC has 6 decimals: at most 6 after the point' } });
    expect(moneyBody(adjustFields, { amount: '0' }, { amount: USDC }, {})).toEqual({ ok: false, errors: { amount: 'Must not be zero' } });
    expect(moneyBody(adjustFields, { amount: '5' }, {}, {})).toEqual({ ok: false, errors: { amount: 'Choose the coin first' } });
    expect(moneyBody(adjustFields, { amount: '' }, {}, {})).toEqual({ ok: true, body: { amount: '' } });
    // A coin's fee is never negative.
    expect(moneyBody(coinsResource.form!, { withdrawalFee: '-1' }, { withdrawalFee: USDC }, {})).toEqual({ ok: false, errors: { withdrawalFee: 'Must not be negative' } });
    expect(moneyBody(coinsResource.form!, { withdrawalFee: '0' }, { withdrawalFee: USDC }, {})).toEqual({ ok: true, body: { withdrawalFee: '0' } });
  });

  it('a reward’s threshold is money for deposits only; shares and packs are counted as typed', () => {
    const form = rewardCardsResource.form!;
    expect(moneyBody(form, { threshold: '250' }, { threshold: null }, { condition: 'packs_opened' })).toEqual({ ok: true, body: { threshold: '250' } });
    expect(moneyBody(form, { threshold: '250' }, { threshold: USDC }, { condition: 'total_deposits' })).toEqual({ ok: true, body: { threshold: '250000000' } });
  });

  it('shows a stored amount in the coin’s units', () => {
    const values = valuesFromRecord(coinsResource.form!, { minWithdrawal: '10000000', withdrawalFee: '500000', decimals: 6, symbol: 'USDC' }, { minWithdrawal: USDC, withdrawalFee: USDC });
    expect(values).toMatchObject({ minWithdrawal: '10', withdrawalFee: '0.5' });
    const reward = valuesFromRecord(rewardCardsResource.form!, { condition: 'packs_opened', threshold: '25' }, { threshold: null });
    expect(reward.threshold).toBe('25');
  });
});
