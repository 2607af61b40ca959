import { whitelistWalletsResource } from '@pitboss/contract';
import { whitelistWallets } from './table.js';
import { walletDef } from '../blocked-wallets/resource.js';

export const whitelistWalletsDef = walletDef(whitelistWalletsResource, whitelistWallets, 'whitelist_wallets_address_uq');
