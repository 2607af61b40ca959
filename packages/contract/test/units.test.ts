import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { defaultDisplayDecimals, faqsResource, formatMoney, formatUnits, MAX_MINOR_UNITS, roundUnits, minorUnitsInput, parseUnits, referenceProblems, RESOURCES, type FormFieldSpec, type ResourceSpec } from '../src/index.js';

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

describe('amounts rounded for a table (roundUnits)', () => {
  const text = (decimal: string, places: number, grouped = false) => roundUnits(decimal, places, { grouped })?.text;

  it('keeps trailing zeros up to the display decimals, unmarked when nothing is dropped', () => {
    expect(roundUnits('4372.5', 2, { grouped: true })).toEqual({ text: '4,372.50', rounded: '4,372.50', exact: true });
    expect(text('12', 4)).toBe('12.0000');
    expect(text('0', 2)).toBe('0.00');
    expect(text('1.2300', 2)).toBe('1.23');
    expect(text('-7.5', 0)).toBe('≈-8');
    expect(text('1234567', 0, true)).toBe('1,234,567');
  });

  it('rounds half away from zero on the digits, and marks a rounded value', () => {
    expect(roundUnits('0.125', 2)).toEqual({ text: '≈0.13', rounded: '0.13', exact: false });
    expect(text('-0.125', 2)).toBe('≈-0.13');
    expect(text('0.124999', 2)).toBe('≈0.12');
    expect(text('12.345678901', 4)).toBe('≈12.3457');
    expect(text('9999.995', 2, true)).toBe('≈10,000.00');
    expect(text('-9.99999', 4)).toBe('≈-10.0000');
    // Far past a float's precision: the digits decide.
    expect(text('9223372036854.7758075', 6)).toBe('≈9223372036854.775808');
    expect(text('0.30000000000000004', 2)).toBe('≈0.30');
  });

  it('never shows a non-zero amount as a plain zero', () => {
    expect(roundUnits('0.000005', 4)).toEqual({ text: '<0.0001', rounded: '0.0000', exact: false });
    expect(text('-0.000005', 4)).toBe('-<0.0001');
    expect(text('0.004', 2)).toBe('<0.01');
    expect(text('0.4', 0)).toBe('<1');
    // Half a unit rounds up: not below the least shown amount.
    expect(text('0.005', 2)).toBe('≈0.01');
  });

  it('refuses what is not a decimal, and matches the exact value whenever it is exact', () => {
    for (const bad of ['', 'abc', '1e6', '5 USDC', '1,000.5', '.5', '--1', '1.']) expect(roundUnits(bad, 2), bad).toBeNull();
    expect(roundUnits('1.5', -1)).toBeNull();
    fc.assert(
      fc.property(fc.bigInt({ min: -MAX_MINOR_UNITS, max: MAX_MINOR_UNITS }), fc.integer({ min: 0, max: 18 }), fc.integer({ min: 0, max: 18 }), (amount, decimals, places) => {
        const r = roundUnits(formatUnits(amount, decimals), places)!;
        // Exact: the same amount; rounded: within half a unit of the last place shown.
        // The shown digits as minor units of `places` (no range limit: 18 places of a large amount pass 2^63).
        const shown = { value: BigInt(r.rounded.replace('.', '')) };
        const scale = 10n ** BigInt(Math.max(decimals, places));
        const a = amount * (scale / 10n ** BigInt(decimals));
        const b = shown.value * (scale / 10n ** BigInt(places));
        const diff = a > b ? a - b : b - a;
        expect(r.exact ? diff === 0n : 2n * diff <= scale / 10n ** BigInt(places)).toBe(true);
        if (places >= decimals) expect(r.exact).toBe(true);
      }),
    );
  });

  it('a coin shows at most 4 decimals unless it says otherwise', () => {
    expect(defaultDisplayDecimals(9)).toBe(4);
    expect(defaultDisplayDecimals(6)).toBe(4);
    expect(defaultDisplayDecimals(2)).toBe(2);
    expect(defaultDisplayDecimals(0)).toBe(0);
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
