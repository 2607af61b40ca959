import { blockedWalletsResource } from './blocked-wallets.js';

export const whitelistWalletsResource: typeof blockedWalletsResource = {
  ...blockedWalletsResource,
  name: 'whitelist-wallets',
  label: 'Whitelisted wallet',
  plural: 'Whitelisted wallets',
  restriction: 'Whitelist Wallet Address',
  pages: { list: '/white-list', add: '/add-white-list', update: '/update-white-list/{id}' },
};
