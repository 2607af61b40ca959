import {blockedWalletsResource, 
} from '@pitboss/contract';
import { eq, } from 'drizzle-orm';
import { blockedWallets, whitelistWallets } from '../../db/schema.js';
import { conflict, } from '../../http/errors.js';
import { iso, defineResource, type Row, type WriteContext } from '../../resources/define.js';
import { type CreatorRow, withCreator } from '../blocked-ips/resource.js';

/** An address is on one list or the other, never both: blocking and whitelisting the same wallet contradicts itself. */
function notOnOtherList(other: typeof blockedWallets | typeof whitelistWallets, otherName: string) {
  return async (input: Row, w: WriteContext): Promise<Row> => {
    if (input.address !== undefined) {
      const [hit] = await w.tx.select({ id: other.id }).from(other).where(eq(other.address, String(input.address))).limit(1);
      if (hit) throw conflict(`This wallet is on the ${otherName}; remove it there first`, { address: `Already on the ${otherName}` });
    }
    return input;
  };
}

export function walletDef(spec: typeof blockedWalletsResource, table: typeof blockedWallets | typeof whitelistWallets, uq: string) {
  const other = table === blockedWallets ? whitelistWallets : blockedWallets;
  const check = notOnOtherList(other, table === blockedWallets ? 'whitelist' : 'block list');
  return defineResource({
    spec,
    table,
    idColumn: table.id,
    columns: { address: table.address, label: table.label, createdAt: table.createdAt },
    searchColumns: [table.address, table.label, table.reason],
    select: withCreator(table),
    toRecord: (r: CreatorRow<typeof table>) => ({
      _id: String(r.id), address: r.address, label: r.label, reason: r.reason, createdByEmail: r.createdByEmail ?? null,
      createdAt: iso(r.createdAt), updatedAt: iso(r.updatedAt),
    }),
    prepareCreate: async (input, w) => ({ ...(await check(input, w)), createdBy: w.actor.admin.id }),
    prepareUpdate: check,
    uniqueErrors: { [uq]: { field: 'address', message: 'This wallet is already on the list' } },
  });
}
export const blockedWalletsDef = walletDef(blockedWalletsResource, blockedWallets, 'blocked_wallets_address_uq');
