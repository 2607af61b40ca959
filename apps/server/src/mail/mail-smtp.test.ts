import { SMTPServer } from 'smtp-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, startTestServer, SUPER_EMAIL, type TestServer } from '../../test/helpers.js';

/** A real SMTP server inside the test receives the reset mail sent through SMTP_URL. */
describe('forgot-password mail over SMTP', () => {
  const received: { to: string[]; data: string }[] = [];
  let smtp: SMTPServer;
  let port = 0;
  let s: TestServer;

  beforeAll(async () => {
    smtp = new SMTPServer({
      authOptional: true,
      disabledCommands: ['STARTTLS', 'AUTH'],
      logger: false,
      onData(stream, session, cb) {
        let data = '';
        stream.on('data', (c: Buffer) => (data += c.toString('utf8')));
        stream.on('end', () => {
          received.push({ to: session.envelope.rcptTo.map((r) => r.address), data });
          cb();
        });
      },
    });
    await new Promise<void>((resolve) => smtp.listen(0, '127.0.0.1', () => resolve()));
    port = (smtp.server.address() as { port: number }).port;
    s = await startTestServer({ SMTP_URL: `smtp://127.0.0.1:${port}`, PUBLIC_URL: 'https://admin.pitboss.example' });
  });
  afterAll(async () => {
    await s?.close();
    await new Promise<void>((resolve) => smtp.close(() => resolve()));
  });

  it('delivers the forgot_password template with a link built from PUBLIC_URL, never the Host header', async () => {
    const res = await call(s, 'POST', '/api/admin/forgotPassword', { body: { email: SUPER_EMAIL }, headers: { host: 'evil.example' } });
    expect(res.status).toBe(200);
    await s.idle();
    for (let i = 0; i < 50 && received.length === 0; i++) await new Promise((r) => setTimeout(r, 50));
    expect(received).toHaveLength(1);
    expect(received[0]!.to).toEqual([SUPER_EMAIL]);
    const unfolded = received[0]!.data.replace(/=\r?\n/g, '').replace(/=3D/g, '=');
    expect(unfolded).toMatch(/Subject: Reset your Pitboss admin password/);
    const link = /https:\/\/admin\.pitboss\.example\/verification\/forgotPassword\?token=([A-Za-z0-9_-]+)/.exec(unfolded);
    expect(link).not.toBeNull();
    expect(unfolded).not.toContain('evil.example');
    const check = await call(s, 'POST', '/api/admin/checkauthtoken', { body: { token: link![1] } });
    expect(check.body.success).toBe(true);
  });
});
