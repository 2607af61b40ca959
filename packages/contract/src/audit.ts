/**
 * Every action the audit log records, with its label: the mechanism's own (create, update…), the
 * account's, the services' (a deposit recorded by the platform), and every declared action of every
 * resource (an action's name is its audit action, so a new action adds its line here). The server's
 * `writeAudit` takes only these, and the audit log's filter lists them by label.
 */
export const AUDIT_ACTIONS = {
  create: 'Created',
  update: 'Updated',
  delete: 'Deleted',
  archive: 'Archived',
  restore: 'Restored',
  denied: 'Refused (no right)',
  profile_update: 'Own profile changed',
  password_change: 'Own password changed',
  password_reset: 'Password reset by link',
  two_factor_enable: '2FA turned on',
  two_factor_disable: '2FA turned off',
  two_factor_recovery_codes: '2FA recovery codes regenerated',
  'reset-2fa': '2FA reset by an admin',
  end_session: 'Session ended',
  end_other_sessions: 'Other sessions ended',
  set_default: 'Default view set',
  record: 'Recorded',
  request: 'Requested',
  succeed: 'Succeeded',
  // Declared actions (resources' `actions`).
  'set-password': 'Password set',
  'end-sessions': 'Sessions ended',
  block: 'Blocked',
  unblock: 'Unblocked',
  'adjust-balance': 'Balance adjusted',
  'make-house': 'Made a house account',
  'make-customer': 'Made a customer account',
  confirm: 'Confirmed',
  fail: 'Marked failed',
  approve: 'Approved',
  reject: 'Rejected',
  complete: 'Completed',
  refund: 'Refunded',
  reverse: 'Reversed',
  open: 'Opened',
  halt: 'Halted',
  resume: 'Resumed',
  close: 'Closed',
  settle: 'Settled',
  resolve: 'Resolved',
  propose: 'Resolution proposed',
  void: 'Voided',
  // The kill switch.
  engage: 'Kill switch engaged',
  release: 'Kill switch released',
  // Trade bots.
  start: 'Started',
  stop: 'Stopped',
  // Orders (platform API and the admin's cancel).
  place: 'Order placed',
  cancel: 'Cancelled',
  // Mail and content.
  'send-test': 'Test mail sent',
  retry: 'Re-queued',
  publish: 'Published',
  unpublish: 'Unpublished',
  // Support tickets.
  assign: 'Assigned',
  reopen: 'Reopened',
  reply: 'Replied',
  note: 'Internal note added',
  message: 'Message from the user',
  upload: 'File uploaded',
  // Booster packs, stores and reward cards.
  activate: 'Put on sale',
  pause: 'Paused',
  verify: 'Verified',
  purchase: 'Pack bought',
  open_pack: 'Pack opened',
  rotate_seed: 'Seed rotated',
  'generate-codes': 'Codes generated',
  redeem: 'Code redeemed',
  grant: 'Reward granted',
} as const;

export type AuditAction = keyof typeof AUDIT_ACTIONS;

export const AUDIT_ACTION_OPTIONS: readonly { value: AuditAction; label: string }[] = (Object.entries(AUDIT_ACTIONS) as [AuditAction, string][]).map(([value, label]) => ({ value, label }));

/**
 * The audit log's resource names that are not a declared resource, single or report, with their
 * labels: records the services write under their own name (a super admin's own account, a pack's
 * seed) and the API areas a refused request (`denied`) is filed under. The audit log's resource
 * filter offers these beside every declaration's title (`filterOptions`).
 */
export const AUDIT_OTHER_RESOURCES: Readonly<Record<string, string>> = {
  admins: 'Super admins',
  'pack-seeds': 'Pack seeds',
  '2fa': 'Two-factor authentication',
  sessions: 'Sessions',
  'saved-views': 'Saved views',
  profile: 'Own profile',
  changePassword: 'Own password',
  dashboard: 'Dashboard',
  'market-overview': 'Market overview',
  notifications: 'Notifications',
  'permission-catalogue': 'Permission catalogue',
  'support-reply': 'Support replies',
  uploads: 'Uploads',
  logout: 'Sign-out',
  getadmindetail: 'Own details',
  getSiteSetting: 'Site settings (read)',
  updateSiteDetails: 'Site settings (save)',
  reports: 'Reports',
  'coin-units': 'Coin display decimals',
};

export function isAuditAction(value: string): value is AuditAction {
  return Object.hasOwn(AUDIT_ACTIONS, value);
}
