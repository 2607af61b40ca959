import { walletList } from '../blocked-wallets/table.js';

export const whitelistWallets = walletList('whitelist_wallets');
