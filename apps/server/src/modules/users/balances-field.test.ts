import fc from 'fast-check';
import { formatUnits } from '@pitboss/contract';
import { describe, expect, it } from 'vitest';
import { balancesField, balancesFromAccounts } from './balances-field.js';

describe("the users export's balances cells", () => {
  const context = { coins: [{ id: '7', symbol: 'AAA', decimals: 18 }, { id: '3', symbol: 'SOL', decimals: 9 }, { id: '12', symbol: 'ZZZ', decimals: 0 }] };

  it('writes available and held per coin of the export, in its order, as formatUnits writes them', () => {
    fc.assert(
      fc.property(fc.uniqueArray(fc.tuple(fc.constantFrom('7', '3', '12', '99'), fc.constantFrom('available', 'held'), fc.bigInt({ min: -(10n ** 30n), max: 10n ** 30n })), { selector: ([c, b]) => `${c} ${b}` }), (accounts) => {
        const want = context.coins.flatMap((c) => ['available', 'held'].map((b) => {
          const a = accounts.find(([id, bucket]) => id === c.id && bucket === b);
          return a ? formatUnits(a[2], c.decimals) : '0';
        }));
        expect(balancesField(accounts.map(([c, b, v]) => `${c},${b},${v}`).join(';'), context)).toBe(want.join(','));
        expect(balancesFromAccounts(accounts.map(([c, b, v]) => `42,${c},${b},${v}\n`).join(''), context)).toBe(want.join(','));
      }),
      { numRuns: 500 },
    );
    expect(balancesField('', context)).toBe('0,0,0,0,0,0');
    expect(balancesField('3,held,-1500000000;7,available,9007199254740993', context)).toBe('0.009007199254740993,0,0,-1.5,0,0');
  });
});
