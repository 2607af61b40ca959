import { and, eq, isNotNull, sql } from 'drizzle-orm';
import type { AppContext } from '../../context.js';
import type { DbOrTx } from '../../db/client.js';
import { loginHistory } from '../../db/schema.js';
import { countryName, type IpLocation, locationLabel } from '../../lib/geoip.js';
import { describeUserAgent } from '../../lib/user-agent.js';
import { loadSiteSettings } from '../site-settings/service.js';
import type { AdminRow } from './sessions.js';
import type { ClientInfo } from './service.js';

/**
 * A successful sign-in from a country this admin has never signed in from, while they have signed
 * in (from a located address) before: queues the `new_sign_in_country` mail in the caller's
 * transaction and returns true (the caller delivers after commit). Call it before recording the
 * sign-in itself. The first sign-in ever, an unlocated address (private, loopback, not in the
 * database) and a known country send nothing.
 * There is no in-app notification centre to post to: the mail is the notice.
 */
export async function mailIfNewCountry(tx: DbOrTx, ctx: AppContext, admin: AdminRow, client: ClientInfo, where: IpLocation): Promise<boolean> {
  if (!where.countryCode) return false;
  const [seen] = await tx
    .select({
      located: sql<number>`count(*)::int`,
      here: sql<number>`count(*) filter (where ${loginHistory.countryCode} = ${where.countryCode})::int`,
    })
    .from(loginHistory)
    .where(and(eq(loginHistory.adminId, admin.id), eq(loginHistory.success, true), isNotNull(loginHistory.countryCode)));
  if (!seen || Number(seen.located) === 0 || Number(seen.here) > 0) return false;
  const id = await ctx.mailer.enqueueTemplate(tx, {
    key: 'new_sign_in_country',
    to: admin.email,
    vars: {
      name: admin.name,
      email: admin.email,
      country: countryName(where.countryCode),
      location: locationLabel(client.ip, where.countryCode, where.city),
      ip: client.ip,
      device: describeUserAgent(client.userAgent),
      time: `${new Date().toISOString().slice(0, 16).replace('T', ' ')} UTC`,
      link: `${ctx.config.publicUrl}/profile`,
      siteName: (await loadSiteSettings(tx)).siteName,
    },
  });
  return id !== null;
}
