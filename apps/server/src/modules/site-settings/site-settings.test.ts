import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { auditLog, siteSettings } from '../../db/schema.js';
import { call, makeSubAdmin, serverFile, type TestServer } from '../../../test/helpers.js';

let s: TestServer;
let superToken: string;
serverFile((m) => ({ s, token: superToken } = m));

describe('site settings', () => {
  it('GET getSiteSetting answers {success, result} and narrows with ?fields', async () => {
    const res = await call(s, 'GET', '/api/admin/getSiteSetting', { token: superToken });
    expect(res.status).toBe(200);
    expect(res.body.success).toBe(true);
    expect(res.body.result).toMatchObject({ siteName: 'Pitboss', takerFeeBps: 100 });
    // Withdrawal limits are per coin (the coin's page): no site-wide number in minor units.
    expect(res.body.result).not.toHaveProperty('withdrawalAutoApproveLimit');
    const narrow = await call(s, 'GET', '/api/admin/getSiteSetting', { token: superToken, query: { fields: 'siteName' } });
    expect(Object.keys(narrow.body.result).sort()).toEqual(['_id', 'siteName']);
  });

  it('updates as super admin and writes an audit entry with before and after', async () => {
    const res = await call(s, 'POST', '/api/admin/updateSiteDetails', {
      token: superToken,
      body: { siteName: 'Pitboss Arena', takerFeeBps: 150, socialLinks: { twitter: 'https://x.com/pitboss', discord: '', telegram: '', instagram: '', facebook: '' } },
    });
    expect(res.status).toBe(200);
    expect(res.body.result).toMatchObject({ siteName: 'Pitboss Arena', takerFeeBps: 150 });
    const [entry] = await s.database.db.select().from(auditLog).where(eq(auditLog.resource, 'site-settings'));
    expect(entry).toMatchObject({ action: 'update', before: expect.objectContaining({ siteName: 'Pitboss' }), after: expect.objectContaining({ siteName: 'Pitboss Arena' }) });
  });

  it('an update changes only the fields it names', async () => {
    await call(s, 'POST', '/api/admin/updateSiteDetails', { token: superToken, body: { logoUrl: 'https://cdn.pitboss.example/logo.png', contactEmail: 'hello@pitboss.example' } });
    const res = await call(s, 'POST', '/api/admin/updateSiteDetails', { token: superToken, body: { footerText: 'Only the footer' } });
    expect(res.body.result).toMatchObject({ footerText: 'Only the footer', logoUrl: 'https://cdn.pitboss.example/logo.png', contactEmail: 'hello@pitboss.example' });
  });

  it('merges social links: naming one leaves the others', async () => {
    await call(s, 'POST', '/api/admin/updateSiteDetails', { token: superToken, body: { socialLinks: { discord: 'https://discord.gg/pitboss' } } });
    const res = await call(s, 'POST', '/api/admin/updateSiteDetails', { token: superToken, body: { socialLinks: { telegram: 'https://t.me/pitboss' } } });
    expect(res.body.result.socialLinks).toMatchObject({ twitter: 'https://x.com/pitboss', discord: 'https://discord.gg/pitboss', telegram: 'https://t.me/pitboss' });
    const bad = await call(s, 'POST', '/api/admin/updateSiteDetails', { token: superToken, body: { logoUrl: '//evil.example/x.png', siteName: 'Evil\r\nBcc: x', takerFeeBps: 5000 } });
    expect(Object.keys(bad.body.errors).sort()).toEqual(['logoUrl', 'siteName', 'takerFeeBps']);
  });

  it('refuses bad input with field errors and changes nothing', async () => {
    const [before] = await s.database.db.select().from(siteSettings);
    const res = await call(s, 'POST', '/api/admin/updateSiteDetails', { token: superToken, body: { siteName: 'Ok name', takerFeeBps: 1.5, contactEmail: 'nope', unknownField: 1 } });
    expect(res.status).toBe(400);
    expect(res.body.success).toBe(false);
    const [after] = await s.database.db.select().from(siteSettings);
    expect(after).toEqual(before);
    const neg = await call(s, 'POST', '/api/admin/updateSiteDetails', { token: superToken, body: { makerFeeBps: -1 } });
    expect(neg.body.errors.makerFeeBps).toBeDefined();
    // A link "path" that a browser reads as another host (`/\\host` is `//host`) is refused like `//host`.
    for (const twitter of ['//evil.example/x', '/\\evil.example/x', '/\\/evil.example']) {
      const offsite = await call(s, 'POST', '/api/admin/updateSiteDetails', { token: superToken, body: { socialLinks: { twitter } } });
      expect(offsite.body.errors, twitter).toEqual({ 'socialLinks.twitter': 'Enter a full http(s) URL or a path' });
    }
    expect((await s.database.db.select().from(siteSettings))[0]).toEqual(before);
  });

  it('turning on two admins to resolve needs two admins holding Markets › resolve (409 on the switch until then)', async () => {
    const update = (body: Record<string, unknown>) => call(s, 'POST', '/api/admin/updateSiteDetails', { token: superToken, body });
    const solo = await update({ resolutionTwoAdmins: true, resolutionDisputeHours: 12 });
    expect(solo.status).toBe(409);
    expect(solo.body.errors).toEqual({ resolutionTwoAdmins: 'Two approvals need two active admins holding Markets › resolve; there is 1' });
    expect((await call(s, 'GET', '/api/admin/getSiteSetting', { token: superToken })).body.result).toMatchObject({ resolutionTwoAdmins: false, resolutionDisputeHours: 24 });
    expect((await update({ resolutionDisputeHours: 169 })).body.errors).toEqual({ resolutionDisputeHours: 'At most 168 hours (a week)' });
    await makeSubAdmin(s, [{ name: 'Markets', canView: true, canEdit: false, rights: ['resolve'] }], superToken);
    const on = await update({ resolutionTwoAdmins: true, resolutionDisputeHours: 12 });
    expect(on.status, JSON.stringify(on.body)).toBe(200);
    expect(on.body.result).toMatchObject({ resolutionTwoAdmins: true, resolutionDisputeHours: 12 });
    expect((await update({ resolutionTwoAdmins: false })).status).toBe(200);
  });

  it('needs "Site Setting" canEdit for a sub-admin', async () => {
    const none = await makeSubAdmin(s, [], superToken);
    const viewer = await makeSubAdmin(s, [{ name: 'Site Setting', canView: true, canEdit: false }], superToken);
    const editor = await makeSubAdmin(s, [{ name: 'Site Setting', canView: true, canEdit: true }], superToken);
    const body = { footerText: 'Edited by a sub-admin' };
    expect((await call(s, 'POST', '/api/admin/updateSiteDetails', { token: none.token, body })).status).toBe(403);
    const denied = await call(s, 'POST', '/api/admin/updateSiteDetails', { token: viewer.token, body });
    expect(denied.status).toBe(403);
    expect(denied.body).toMatchObject({ success: false, message: expect.any(String) });
    expect((await call(s, 'POST', '/api/admin/updateSiteDetails', { token: editor.token, body })).status).toBe(200);
    // Any signed-in admin may read them (the header shows the site name).
    expect((await call(s, 'GET', '/api/admin/getSiteSetting', { token: none.token })).status).toBe(200);
    // Denied attempts are audited.
    const denials = await s.database.db.select().from(auditLog).where(eq(auditLog.action, 'denied'));
    expect(denials.length).toBeGreaterThanOrEqual(2);
  });
});
