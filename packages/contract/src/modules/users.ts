import { z } from 'zod';
import { defineStates, stateValues, stateOptions } from '../resources/states.js';
import { recordFields, resourceSpec, } from '../resources/spec.js';
import type { ReportSpec } from '../resources/report.js';
import { reasonField, reasonInput, units } from '../lib/fields.js';
import { adjustBalance } from './balance-adjustments.js';

// ── Users ──────────────────────────────────────────────────────────────────
export const userBalanceSchema = z.object({ coin: z.string(), decimals: z.number().int(), available: units, held: units }).strict();

/** A platform user: active, or blocked by an admin (with a reason). */
export const userStates = defineStates({
  noun: 'User',
  states: [{ value: 'active', label: 'Active', color: 'green' }, { value: 'blocked', label: 'Blocked', color: 'red' }],
  initial: 'active',
  transitions: { block: { from: ['active'], to: 'blocked' }, unblock: { from: ['blocked'], to: 'active' } },
});

export const userRecord = z.object({
  _id: recordFields.id, username: z.string(), email: z.string(), walletAddress: z.string().nullable(), status: z.enum(stateValues(userStates)),
  blockedReason: z.string().nullable(), emailVerified: z.boolean(), house: z.boolean(), country: z.string().nullable(), signupIp: z.string(),
  balances: z.array(userBalanceSchema), createdAt: recordFields.at, lastLoginAt: recordFields.atOrNull,
}).strict();
export type UserRecord = z.infer<typeof userRecord>;


export const usersResource = resourceSpec(userRecord, {
  name: 'users', label: 'User', plural: 'Users', restriction: 'Users',
  pages: { list: '/user-list', update: '/user-history/{userid}' },
  titleField: 'username', readOnly: true, keyset: true,
  columns: [
    { key: 'username', label: 'Username', type: 'text', sortable: true },
    { key: 'email', label: 'Email', type: 'text', sortable: true },
    { key: 'walletAddress', label: 'Wallet', type: 'code', hidden: true },
    { key: 'status', label: 'Status', type: 'status', sortable: true },
    { key: 'house', label: 'House account', type: 'bool', hidden: true },
    { key: 'country', label: 'Country', type: 'code' },
    { key: 'signupIp', label: 'Signup IP', type: 'code', hidden: true },
    { key: 'balances', label: 'Balances', type: 'balances', hidden: true },
    { key: 'createdAt', label: 'Signed up', type: 'date', sortable: true },
    { key: 'lastLoginAt', label: 'Last login', type: 'date', hidden: true },
  ],
  filters: [
    { key: 'status', label: 'Status', type: 'oneOf', options: stateOptions(userStates) },
    { key: 'house', label: 'Account', type: 'oneOf', options: [{ value: 'false', label: 'Customer' }, { value: 'true', label: 'House (trade bots)' }] },
    { key: 'country', label: 'Country', type: 'equals', options: 'countries' },
    { key: 'email', label: 'Email', type: 'equals' },
    { key: 'walletAddress', label: 'Wallet', type: 'equals' },
    { key: 'createdAt', label: 'Signed up', type: 'dateRange' },
  ],
  search: 'username or email',
  defaultSort: '-createdAt',
  deleteMode: 'none',
  states: userStates,
  actions: [
    { name: 'block', label: 'Block', right: 'edit', input: reasonInput, fields: [reasonField], danger: true, confirm: 'The user can no longer request withdrawals.', bulk: true },
    { name: 'unblock', label: 'Unblock', right: 'edit', confirm: 'The user gets full access again.', bulk: true },
    {
      name: 'adjust-balance', label: 'Adjust balance', right: { named: 'adjust-balance' }, ...adjustBalance,
      fields: [
        { key: 'coinId', label: 'Coin', type: 'reference', required: true, reference: { resource: 'coins', labelKey: 'symbol', extra: ['decimals', 'symbol'] } },
        { key: 'amount', label: 'Amount', type: 'money', required: true, money: { field: 'coinId', decimals: 'decimals', symbol: 'symbol', negative: true }, description: 'Negative to debit' },
        ...adjustBalance.fields,
      ],
      confirm: 'A manual ledger correction, recorded with your name and the reason. At or above the coin’s two-approval threshold it waits for a second admin’s approval (Balance adjustments).',
    },
    // A trade bot trades only as a house account, and moves its money: marking one takes the same right as adjusting a balance.
    {
      name: 'make-house', label: 'Make house account', right: { named: 'adjust-balance' }, input: reasonInput, fields: [reasonField], shownWhen: { key: 'house', equals: false }, listed: false,
      confirm: "Trade bots can then trade as this user, with its balances. Only for the platform's own accounts, never a customer's.",
    },
    {
      name: 'make-customer', label: 'Make customer account', right: { named: 'adjust-balance' }, input: reasonInput, fields: [reasonField], shownWhen: { key: 'house', equals: true }, listed: false,
      confirm: 'No trade bot can trade as this user any more (refused while a bot does).',
    },
  ],
  children: [
    { resource: 'deposits', label: 'Deposits', filter: 'userId' },
    { resource: 'withdrawals', label: 'Withdrawals', filter: 'userId' },
    { resource: 'fiat-payments', label: 'Payments', filter: 'userId' },
    { resource: 'balance-adjustments', label: 'Adjustments', filter: 'userId' },
    { resource: 'orders', label: 'Orders', filter: 'userId', hideColumns: ['username'] },
    { resource: 'trades', label: 'Trades', filter: 'userIds' },
    { resource: 'open-positions', label: 'Open positions', filter: 'userId', hideColumns: ['username'] },
    { resource: 'closed-positions', label: 'Closed positions', filter: 'userId', hideColumns: ['username'] },
    { resource: 'user-cards', label: 'Cards', filter: 'userId' },
    { resource: 'tickets', label: 'Tickets', filter: 'userId' },
    { resource: 'pack-purchases', label: 'Packs', filter: 'userId' },
    { resource: 'pack-openings', label: 'Pack openings', filter: 'userId' },
    { resource: 'reward-grants', label: 'Rewards', filter: 'userId' },
  ],
});

/** Signups per day (`/signup-report`). */
export const signupReport: ReportSpec = {
  name: 'signups',
  title: 'Signup report',
  description: 'New users per day.',
  restriction: 'Users',
  page: '/signup-report',
  columns: [
    { key: 'date', label: 'Day', type: 'text' },
    { key: 'signups', label: 'Signups', type: 'number' },
    { key: 'verified', label: 'Email verified', type: 'number' },
  ],
  chart: { date: 'date', value: 'signups', label: 'Signups per day' },
  defaultDays: 30,
};
