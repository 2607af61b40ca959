import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { faqsResource, formatMoney, formatUnits, MAX_MINOR_UNITS, minorUnitsInput, parseUnits, referenceProblems, RESOURCES, type FormFieldSpec, type ResourceSpec } from '../src/index.js';

const ok = (text: string, decimals: number, options = {}) => {
  const r = parseUnits(text, decimals, 'COIN', options);
  if (!r.ok) throw new Error(`${text}: ${r.error}`);
  return r.value;
};
const refused = (text: string, decimals: number, symbol: string, options = {}) => {
  const r = parseUnits(text, decimals, symbol, options);
  if (r.ok) throw new Error(`${text} was taken as ${r.value}`);
  return r.error;
};

describe('amounts as people write them (parseUnits, formatUnits)', () => {
  it('reads a decimal in the coin’s units as minor units', () => {
    expect(ok('5', 6)).toBe(5_000_000n);
    expect(ok('0.25', 6)).toBe(250_000n);
    expect(ok('.5', 6)).toBe(500_000n);
    expect(ok('5.', 6)).toBe(5_000_000n);
    expect(ok(' 1,000.5 ', 6)).toBe(1_000_500_000n);
    expect(ok('0.000000001', 9)).toBe(1n);
    expect(ok('3', 9)).toBe(3_000_000_000n);
    expect(ok('12', 0)).toBe(12n);
    expect(ok('-2.5', 6, { negative: true })).toBe(-2_500_000n);
    expect(ok('0', 6, { zero: true })).toBe(0n);
  });

  it('refuses, in a sentence for the field, what the coin or the field does not allow', () => {
    expect(refused('5.1234567', 6, 'USDC')).toBe('USDC has 6 decimals: at most 6 after the point');
    expect(refused('1.5', 0, 'PTS')).toBe('PTS has no decimals: a whole number');
    expect(refused('-1', 6, 'USDC')).toBe('Must not be negative');
    expect(refused('0', 6, 'USDC')).toBe('Must be above zero');
    expect(refused('0.000', 6, 'USDC', { negative: true })).toBe('Must not be zero');
    for (const bad of ['abc', '1e6', '5 USDC', '1.2.3', '.', '-', '0x10', '1,00', 'NaN', 'Infinity']) expect(refused(bad, 6, 'USDC'), bad).toBe('A number of USDC, like 5 or 0.25');
    expect(refused('', 6, 'USDC')).toBe('Enter an amount in USDC');
    // 2^63 minor units is one past what a ledger column holds.
    expect(refused('9223372036854.775808', 6, 'USDC')).toBe('At most 9,223,372,036,854.775807 USDC');
    expect(ok('9223372036854.775807', 6)).toBe(MAX_MINOR_UNITS);
    expect(refused('-9223372036854.775808', 6, 'USDC', { negative: true })).toMatch(/^At most/);
  });

  it('writes minor units back in the coin’s units, trimmed or fixed', () => {
    expect(formatUnits('12500000', 6)).toBe('12.5');
    expect(formatUnits(5_000_000n, 6, { fixed: true })).toBe('5.000000');
    expect(formatUnits(843_223_000_000n, 6, { grouped: true })).toBe('843,223');
    expect(formatUnits(-1n, 9)).toBe('-0.000000001');
    expect(formatUnits(7n, 0, { fixed: true, grouped: true })).toBe('7');
    expect(formatMoney(8_432_230_000n, 6, 'USDC')).toBe('8,432.230000 USDC');
    expect(formatMoney(1n, 9, 'SOL')).toBe('0.000000001 SOL');
  });

  it('reads back exactly what it writes, for any amount and any decimals', () => {
    fc.assert(
      fc.property(fc.bigInt({ min: -MAX_MINOR_UNITS, max: MAX_MINOR_UNITS }), fc.integer({ min: 0, max: 18 }), fc.boolean(), fc.boolean(), (amount, decimals, fixed, grouped) => {
        const text = formatUnits(amount, decimals, { fixed, grouped });
        expect(parseUnits(text, decimals, 'X', { negative: true, zero: true })).toEqual({ ok: true, value: amount });
      }),
    );
  });

  it('the API’s minor units: digits, in range, above zero unless allowed', () => {
    const price = minorUnitsInput('The price');
    expect(price.safeParse('5000000').success).toBe(true);
    expect(price.safeParse('0').success).toBe(false);
    expect(price.safeParse('5.5').success).toBe(false);
    expect(price.safeParse('-5').success).toBe(false);
    expect(price.safeParse(MAX_MINOR_UNITS.toString()).success).toBe(true);
    expect(price.safeParse((MAX_MINOR_UNITS + 1n).toString()).success).toBe(false);
    const adjustment = minorUnitsInput('An amount', { negative: true });
    expect(adjustment.safeParse('-5').success).toBe(true);
    expect(adjustment.safeParse('0').success).toBe(false);
    expect(minorUnitsInput('A fee', { zero: true }).safeParse('0').success).toBe(true);
  });
});

describe('money fields', () => {
  it('every money input of the declarations is a money field with a coin to read', () => {
    const moneyFields = Object.values(RESOURCES).flatMap((spec) => [
      ...(spec.form ?? []).filter((f) => f.type === 'money').map((f) => `${spec.name}.${f.key}`),
      ...(spec.actions ?? []).flatMap((a) => (a.fields ?? []).filter((f) => f.type === 'money').map((f) => `${spec.name}.${a.name}.${f.key}`)),
    ]);
    expect(moneyFields.sort()).toEqual(
      ['booster-packs.price', 'coins.adjustmentApprovalThreshold', 'coins.autoApproveLimit', 'coins.dailyWithdrawalLimit', 'coins.largeDepositThreshold', 'coins.minWithdrawal', 'coins.secondApprovalThreshold', 'coins.withdrawalFee', 'reward-cards.rewardAmount', 'reward-cards.threshold', 'store-allocations.price', 'users.adjust-balance.amount'].sort(),
    );
    // No label still asks for minor units.
    const labels = Object.values(RESOURCES).flatMap((spec) => [...(spec.form ?? []), ...(spec.actions ?? []).flatMap((a) => a.fields ?? [])].map((f) => f.label));
    expect(labels.filter((l) => /minor units/i.test(l))).toEqual([]);
  });

  it('finds a money field whose coin cannot be read', () => {
    const coin = { resource: 'coins', labelKey: 'symbol' };
    const probe = (form: FormFieldSpec[]): ResourceSpec => ({ ...faqsResource, name: 'probes', form });
    expect(referenceProblems(probe([{ key: 'amount', label: 'Amount', type: 'money', money: { field: 'coinId', decimals: 'decimals', symbol: 'symbol' } }]), RESOURCES)).toEqual([
      'field "amount" reads its coin from "coinId", not a reference field of the same form',
    ]);
    expect(
      referenceProblems(
        probe([
          { key: 'coinId', label: 'Coin', type: 'reference', reference: { ...coin, extra: ['decimals'] } },
          { key: 'amount', label: 'Amount', type: 'money', money: { field: 'coinId', decimals: 'decimals', symbol: 'symbol' } },
        ]),
        RESOURCES,
      ),
    ).toEqual(['field "amount" reads "symbol" from "coinId", whose choices do not carry it (extra)']);
    expect(referenceProblems(probe([{ key: 'coinId', label: 'Coin', type: 'reference', reference: { ...coin, extra: ['secret'] } }]), RESOURCES)).toEqual([
      'field "coinId" carries "secret", not a field of coins',
    ]);
    expect(referenceProblems(probe([{ key: 'amount', label: 'Amount', type: 'money', money: { decimals: 'decimals', symbol: 'symbol' } }]), RESOURCES)).toEqual([
      'field "amount" reads "decimals", not a field of the record',
      'field "amount" reads "symbol", not a field of the record',
    ]);
  });
});
