import { MAIL_TEMPLATE_KEYS } from '@pitboss/contract';
import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { auditLog, emailTemplates, mailOutbox } from '../../db/schema.js';
import { enqueueTemplate } from '../../mail/mailer.js';
import { call, makeSubAdmin, serverFile, type TestServer } from '../../../test/helpers.js';

let s: TestServer;
let token: string;
const idOf = async (key: string) => {
  const [row] = await s.database.db.select({ id: emailTemplates.id }).from(emailTemplates).where(eq(emailTemplates.key, key));
  return String(row!.id);
};
const rowOf = async (key: string) => (await s.database.db.select().from(emailTemplates).where(eq(emailTemplates.key, key)))[0]!;
const outbox = () => s.database.db.select().from(mailOutbox).orderBy(mailOutbox.id);

serverFile((m) => ({ s, token } = m));

describe('email templates', () => {
  it('exist for every mail the product sends, with their declared variables, in production mode too', async () => {
    const res = await call(s, 'GET', '/api/admin/email-templates', { token, query: { limit: '50' } });
    expect(res.status).toBe(200);
    const keys = res.body.result.items.map((t: { key: string }) => t.key).sort();
    expect(keys).toEqual([...MAIL_TEMPLATE_KEYS].sort());
    for (const k of ['forgot_password', 'withdrawal_approved', 'withdrawal_rejected', 'deposit_confirmed', 'ticket_reply', 'two_factor_changed', 'new_sign_in_country']) expect(keys).toContain(k);
    const approved = res.body.result.items.find((t: { key: string }) => t.key === 'withdrawal_approved');
    expect(approved.variables.map((v: { name: string }) => v.name)).toContain('amount');
    expect(approved.variables[0].sample).not.toBe('');
  });

  it('a value is HTML-escaped in the body: {{name}} = <script> renders as text', async () => {
    const before = (await outbox()).length;
    await s.database.db.transaction((tx) =>
      enqueueTemplate(tx, { key: 'email_changed', to: 'someone@pitboss.test', vars: { name: '<script>alert(1)</script>', oldEmail: 'a@b.test', newEmail: '"><img src=x onerror=alert(1)>' } }),
    );
    const mails = await outbox();
    expect(mails.length).toBe(before + 1);
    const mail = mails.at(-1)!;
    expect(mail.html).toContain('&lt;script&gt;alert(1)&lt;/script&gt;');
    expect(mail.html).not.toContain('<script');
    expect(mail.html).not.toContain('<img');
    expect(mail.html).toContain('&quot;&gt;&lt;img src=x onerror=alert(1)&gt;');
    // The text part reads the value as typed.
    expect(mail.text).toContain('<script>alert(1)</script>');
  });

  it('a subject that would span lines from a variable is refused and queues nothing (no header injection)', async () => {
    const before = (await outbox()).length;
    const attempt = s.database.db.transaction((tx) =>
      enqueueTemplate(tx, {
        key: 'new_sign_in_country', to: 'x@pitboss.test',
        vars: { name: 'n', email: 'x@pitboss.test', country: 'France\r\nBcc: victim@evil.test', location: 'l', ip: '1.2.3.4', device: 'd', time: 't', link: 'https://x', siteName: 'Pitboss' },
      }),
    );
    await expect(attempt).rejects.toMatchObject({ status: 400 });
    expect((await outbox()).length).toBe(before);
  });

  it('an address with a line break (or not an address) is refused', async () => {
    for (const to of ['a@pitboss.test\r\nBcc: b@evil.test', 'a@pitboss.test, b@evil.test', 'not an address']) {
      const attempt = s.database.db.transaction((tx) => enqueueTemplate(tx, { key: 'email_changed', to, vars: { name: 'n', oldEmail: 'o', newEmail: 'n' } }));
      await expect(attempt).rejects.toMatchObject({ status: 400 });
    }
  });

  it('a subject with CR/LF in the template is refused on save; nothing changes', async () => {
    const id = await idOf('deposit_confirmed');
    const before = await rowOf('deposit_confirmed');
    for (const subject of ['Deposit\r\nBcc: victim@evil.test', 'Deposit\nconfirmed', 'Deposit\u2028confirmed']) {
      const res = await call(s, 'PATCH', `/api/admin/email-templates/${id}`, { token, body: { subject } });
      expect(res.status).toBe(400);
      expect(res.body.errors.subject).toBeTruthy();
    }
    expect(await rowOf('deposit_confirmed')).toEqual(before);
  });

  it('an unknown variable is refused on save with a 400 naming it; unescaped output and partials too', async () => {
    const id = await idOf('deposit_confirmed');
    const before = await rowOf('deposit_confirmed');
    const bad = await call(s, 'PATCH', `/api/admin/email-templates/${id}`, { token, body: { html: '<p>Hello {{username}}, your password is {{password}}</p>' } });
    expect(bad.status).toBe(400);
    expect(bad.body.errors.html).toContain('{{password}}');
    expect(bad.body.message).toContain('{{password}}');
    const badSubject = await call(s, 'PATCH', `/api/admin/email-templates/${id}`, { token, body: { subject: 'Hi {{user.constructor}}' } });
    expect(badSubject.status).toBe(400);
    expect(badSubject.body.errors.subject).toContain('{{user.constructor}}');
    for (const html of ['<p>{{{username}}}</p>', '<p>{{&username}}</p>', '<p>{{> partial}}</p>', '<p>{{=<% %>=}}<%username%></p>', '<p>{{#username}}unclosed</p>']) {
      const res = await call(s, 'PATCH', `/api/admin/email-templates/${id}`, { token, body: { html } });
      expect(res.status, html).toBe(400);
    }
    expect(await rowOf('deposit_confirmed')).toEqual(before);
  });

  it('sanitises the body on save: no script, no event handler, no javascript: link; mail layout kept', async () => {
    const id = await idOf('deposit_confirmed');
    const html =
      '<table cellpadding="4" style="border-collapse: collapse"><tr><td style="color: #333; background-color: expression(alert(1))">Hi {{username}}</td></tr></table>' +
      '<script>alert(1)</script><img src="https://cdn.pitboss.example/logo.png" onerror="alert(1)" alt="logo"><a href="javascript:alert(1)">x</a>' +
      '{{#txSignature}}<p>Tx {{txSignature}}</p>{{/txSignature}}<p>{{amount}} for #{{depositId}} on {{siteName}}</p>';
    const res = await call(s, 'PATCH', `/api/admin/email-templates/${id}`, { token, body: { html } });
    expect(res.status).toBe(200);
    const saved = (await rowOf('deposit_confirmed')).html;
    expect(saved).not.toMatch(/<script|onerror|javascript:|expression/i);
    expect(saved).toContain('<table cellpadding="4" style="border-collapse:collapse">');
    expect(saved).toContain('<img src="https://cdn.pitboss.example/logo.png" alt="logo" />');
    expect(saved).toContain('{{#txSignature}}');
    // A body that is nothing but script is refused.
    const empty = await call(s, 'PATCH', `/api/admin/email-templates/${id}`, { token, body: { html: '<script>alert(1)</script>' } });
    expect(empty.status).toBe(400);
  });

  it('previews an unsaved body with sample values (sanitised, escaped); unknown variables are a 400', async () => {
    const id = await idOf('withdrawal_rejected');
    const res = await call(s, 'POST', `/api/admin/email-templates/${id}/preview`, {
      token,
      body: { subject: 'Rejected: {{amount}}', html: '<p onclick="x()">Hi {{username}}</p><script>alert(1)</script>', vars: { username: '<b>bold</b>' } },
    });
    expect(res.status).toBe(200);
    expect(res.body.result.subject).toBe('Rejected: 125.5 USDC');
    expect(res.body.result.html).toBe('<p>Hi &lt;b&gt;bold&lt;/b&gt;</p>');
    const unknown = await call(s, 'POST', `/api/admin/email-templates/${id}/preview`, { token, body: { html: '<p>{{secret}}</p>' } });
    expect(unknown.status).toBe(400);
    expect(unknown.body.errors.html).toContain('{{secret}}');
    // A variable value with a line break cannot reach the subject.
    const split = await call(s, 'POST', `/api/admin/email-templates/${id}/preview`, { token, body: { subject: '{{reason}}', vars: { reason: 'a\nBcc: x@evil.test' } } });
    expect(split.status).toBe(400);
  });

  it('send test queues the saved template with samples in the outbox, audited; it reaches the transport', async () => {
    const id = await idOf('withdrawal_approved');
    const before = (await outbox()).length;
    const res = await call(s, 'POST', `/api/admin/email-templates/${id}/send-test`, { token, body: { to: 'Tester@Pitboss.test' } });
    expect(res.status).toBe(200);
    const mails = await outbox();
    expect(mails.length).toBe(before + 1);
    expect(mails.at(-1)).toMatchObject({ toAddress: 'tester@pitboss.test', subject: '[Test] Your Pitboss withdrawal of 125.5 USDC was approved', templateKey: 'withdrawal_approved', status: 'pending' });
    const [audit] = await s.database.db.select().from(auditLog).where(eq(auditLog.action, 'send-test'));
    expect(audit).toMatchObject({ resource: 'email-templates', recordId: id });
    await s.mailer.deliverPending();
    expect(s.mail.at(-1)).toMatchObject({ to: 'tester@pitboss.test', subject: '[Test] Your Pitboss withdrawal of 125.5 USDC was approved' });
    const bad = await call(s, 'POST', `/api/admin/email-templates/${id}/send-test`, { token, body: { to: 'a@b.test\r\nBcc: c@evil.test' } });
    expect(bad.status).toBe(400);
  });

  it('rights: view may list, read and preview (what users receive), not save or send; no right gets 403; templates cannot be created or deleted', async () => {
    const id = await idOf('forgot_password');
    const viewer = await makeSubAdmin(s, [{ name: 'Email Templates', canView: true, canEdit: false }], token);
    const none = await makeSubAdmin(s, [{ name: 'FAQ', canView: true, canEdit: true }], token);
    expect((await call(s, 'GET', '/api/admin/email-templates', { token: viewer.token })).status).toBe(200);
    expect((await call(s, 'GET', `/api/admin/email-templates/${id}`, { token: viewer.token })).status).toBe(200);
    expect((await call(s, 'POST', `/api/admin/email-templates/${id}/preview`, { token: viewer.token, body: {} })).status).toBe(200);
    expect((await call(s, 'POST', `/api/admin/email-templates/${id}/preview`, { token: none.token, body: {} })).status).toBe(403);
    expect((await call(s, 'PATCH', `/api/admin/email-templates/${id}`, { token: viewer.token, body: { name: 'Changed' } })).status).toBe(403);
    expect((await call(s, 'POST', `/api/admin/email-templates/${id}/send-test`, { token: viewer.token, body: { to: 'a@pitboss.test' } })).status).toBe(403);
    expect((await call(s, 'GET', '/api/admin/email-templates', { token: none.token })).status).toBe(403);
    expect((await call(s, 'POST', `/api/admin/email-templates/${id}/preview`, { token: none.token, body: {} })).status).toBe(403);
    expect((await call(s, 'DELETE', `/api/admin/email-templates/${id}`, { token })).status).toBe(404);
    expect((await call(s, 'POST', '/api/admin/email-templates', { token, body: { key: 'x' } })).status).toBe(404);
  });

  it('a reset link rendered through the template keeps its token readable for the mail and redacted once sent', async () => {
    const link = 'http://pitboss.test/verification/forgotPassword?token=AbC_123-xyz';
    const id = await s.database.db.transaction((tx) =>
      enqueueTemplate(tx, { key: 'forgot_password', to: 'reset@pitboss.test', vars: { name: 'R', email: 'reset@pitboss.test', link, expiresInMinutes: '30', siteName: 'Pitboss' } }),
    );
    const [queued] = await s.database.db.select().from(mailOutbox).where(eq(mailOutbox.id, id!));
    expect(queued!.html).toContain(`href="${link}"`);
    await s.mailer.deliverPending();
    expect(s.mail.at(-1)!.html).toContain(link);
    const [sent] = await s.database.db.select().from(mailOutbox).where(eq(mailOutbox.id, id!));
    expect(sent).toMatchObject({ status: 'sent', redacted: true });
    expect(sent!.html).not.toContain('AbC_123-xyz');
    expect(sent!.text).not.toContain('AbC_123-xyz');
  });

  it('an inactive template sends nothing', async () => {
    const id = await idOf('email_changed');
    expect((await call(s, 'PATCH', `/api/admin/email-templates/${id}`, { token, body: { status: 'inactive' } })).status).toBe(200);
    const queued = await s.database.db.transaction((tx) => enqueueTemplate(tx, { key: 'email_changed', to: 'a@pitboss.test', vars: { name: 'n', oldEmail: 'o', newEmail: 'n' } }));
    expect(queued).toBeNull();
    expect((await call(s, 'PATCH', `/api/admin/email-templates/${id}`, { token, body: { status: 'active' } })).status).toBe(200);
  });
});
