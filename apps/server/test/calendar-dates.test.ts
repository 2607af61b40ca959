import { describe, expect, it } from 'vitest';
import { call, serverFile, type TestServer } from './helpers.js';

/**
 * A day in a list's date filter or a report's period (`YYYY-MM-DD`) must be a day of the calendar:
 * 30 February, month 13 or year 0 are the caller's mistake, a 400 naming the field, decided by the
 * contract and not left to the database (which answered a 400 without the field on the list, and
 * on an export streamed through COPY could only fail once the answer had begun).
 */
let s: TestServer;
let token: string;
serverFile((m) => ({ s, token } = m));

const IMPOSSIBLE = ['2026-02-30', '2026-13-01', '2026-00-10', '2026-04-31', '0000-01-01', '2025-02-29'];

describe('impossible calendar days', () => {
  it('a list filter, its export and a report answer 400 with the field', async () => {
    for (const day of IMPOSSIBLE) {
      for (const path of ['/api/admin/users', '/api/admin/users/export', '/api/admin/audit-log', '/api/admin/audit-log/export']) {
        const res = await call(s, 'GET', `${path}?createdAt_from=${day}`, { token });
        expect(res.status, `${path} ${day}`).toBe(400);
        expect(res.body.errors, `${path} ${day}`).toEqual({ createdAt_from: 'Not a day of the calendar' });
      }
      for (const report of ['signups', 'admin-profit']) {
        const res = await call(s, 'GET', `/api/admin/reports/${report}?from=${day}&to=2026-03-01`, { token });
        expect(res.status, `${report} ${day}`).toBe(400);
        expect(res.body.errors, `${report} ${day}`).toMatchObject({ from: 'Not a day of the calendar' });
      }
    }
  });

  it('real days pass: a leap day, the ends of months', async () => {
    for (const day of ['2024-02-29', '2026-01-31', '2026-04-30', '2026-12-31']) {
      expect((await call(s, 'GET', `/api/admin/users?createdAt_from=${day}&createdAt_to=${day}`, { token })).status, day).toBe(200);
    }
    expect((await call(s, 'GET', '/api/admin/reports/signups?from=2024-02-29&to=2024-03-31', { token })).status).toBe(200);
  });
});
