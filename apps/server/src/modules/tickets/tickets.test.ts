import { randomBytes, randomUUID } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { AddressInfo } from 'node:net';
import { EventStreamParser, type StreamEvent } from '@pitboss/contract';
import { eq, sql } from 'drizzle-orm';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mailOutbox, notifications, supportCategories, tickets } from '../../db/schema.js';
import { queryRows } from '../../db/client.js';
import { makePng, pngChunk } from '../../lib/png.js';
import { call, makeSubAdmin, startTestServer, superLogin, type TestServer } from '../../../test/helpers.js';
import { newPlatformKey, platformCall } from '../../../test/money-helpers.js';
import { runNotificationConditions, waitedFor } from '../notifications/job.js';

const KEY = newPlatformKey();
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'pitboss-tickets-'));
let s: TestServer;
let superToken: string;
let agent: { id: string; token: string };
let viewOnly: { id: string; token: string };
let noTickets: { id: string; token: string };
let userId: string;
let categoryId: string;

const platform = (method: 'GET' | 'POST', p: string, body?: unknown) => platformCall(s, KEY, method, p, { body });

function multipart(files: { name: string; type: string; bytes: Buffer }[]) {
  const boundary = `----pitboss${randomBytes(8).toString('hex')}`;
  const parts = files.map((f) =>
    Buffer.concat([
      Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${f.name}"\r\nContent-Type: ${f.type}\r\n\r\n`),
      f.bytes,
      Buffer.from('\r\n'),
    ]),
  );
  return { payload: Buffer.concat([...parts, Buffer.from(`--${boundary}--\r\n`)]), contentType: `multipart/form-data; boundary=${boundary}` };
}

async function upload(token: string, ticketId: string, files: { name: string; type: string; bytes: Buffer }[]) {
  const { payload, contentType } = multipart(files);
  const res = await s.app.inject({ method: 'POST', url: `/api/admin/support-reply/${ticketId}/attachments`, headers: { authorization: `Bearer ${token}`, 'content-type': contentType }, payload });
  return { status: res.statusCode, body: res.json() };
}

const openTicket = async (subject = 'Cannot withdraw', message = 'My withdrawal is stuck.\n\nPlease help.') => {
  const res = await platform('POST', 'tickets', { userId, categoryId, subject, message, priority: 'high' });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.result as { _id: string; status: string; messages: { body: string; author: string }[] };
};

beforeAll(async () => {
  s = await startTestServer({ PLATFORM_API_KEY: KEY, DATA_DIR: dataDir });
  superToken = await superLogin(s);
  agent = await makeSubAdmin(s, [{ name: 'Support Ticket', canView: true, canEdit: true }, { name: 'Support Reply', canView: true, canEdit: true }, { name: 'Notification', canView: true, canEdit: false }], superToken);
  viewOnly = await makeSubAdmin(s, [{ name: 'Support Ticket', canView: true, canEdit: false }, { name: 'Support Reply', canView: true, canEdit: false }], superToken);
  noTickets = await makeSubAdmin(s, [{ name: 'Notification', canView: true, canEdit: false }, { name: 'Users', canView: true, canEdit: false }], superToken);
  const u = await platform('POST', 'users', { username: `tk_${randomBytes(3).toString('hex')}`, email: `tk${randomBytes(3).toString('hex')}@players.test` });
  userId = u.body.result._id;
  const [c] = await s.database.db.insert(supportCategories).values({ name: `Payments ${randomBytes(2).toString('hex')}` }).returning();
  categoryId = String(c!.id);
}, 120_000);
afterAll(async () => {
  await s?.close();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

describe('ticket states', () => {
  it('moves by action and by the user\'s message; a wrong state is a 409 that changes nothing', async () => {
    const t = await openTicket();
    expect(t.status).toBe('open');
    expect(t.messages[0]!.body).toBe('<p>My withdrawal is stuck.</p><p>Please help.</p>');
    const reopen = await call(s, 'POST', `/api/admin/tickets/${t._id}/reopen`, { token: agent.token, body: {} });
    expect(reopen.status).toBe(409);
    expect((await call(s, 'POST', `/api/admin/tickets/${t._id}/close`, { token: viewOnly.token, body: {} })).status).toBe(403);
    const closed = await call(s, 'POST', `/api/admin/tickets/${t._id}/close`, { token: agent.token, body: {} });
    expect(closed.body.result).toMatchObject({ status: 'closed', waitingSince: null });
    // The user writes again: the closed ticket is open and waiting.
    const again = await platform('POST', `tickets/${t._id}/messages`, { userId, message: 'Still stuck' });
    expect(again.body.result.status).toBe('open');
    const [row] = await s.database.db.select().from(tickets).where(eq(tickets.id, Number(t._id)));
    expect(row!.waitingSince).not.toBeNull();
    expect(row!.closedAt).toBeNull();
    // Another user's id: as if the ticket did not exist.
    expect((await platform('POST', `tickets/${t._id}/messages`, { userId: '999999', message: 'x' })).status).toBe(404);
    // An admin's reply: answered, no longer waiting.
    const reply = await call(s, 'POST', `/api/admin/support-reply/${t._id}/messages`, { token: agent.token, body: { body: '<p>Sent again.</p>' } });
    expect(reply.status, JSON.stringify(reply.body)).toBe(200);
    expect((await call(s, 'GET', `/api/admin/tickets/${t._id}`, { token: agent.token })).body.result).toMatchObject({ status: 'answered', waitingSince: null });
    // The user answers: open again.
    expect((await platform('POST', `tickets/${t._id}/messages`, { userId, message: 'Thanks, got it' })).body.result.status).toBe('open');
    expect((await call(s, 'POST', `/api/admin/tickets/${t._id}/reopen`, { token: agent.token, body: {} })).status).toBe(409);
  });

  it('bad input is a 400 on the field and writes nothing', async () => {
    const before = (await s.database.db.select().from(tickets)).length;
    const bad = await platform('POST', 'tickets', { userId, categoryId: '987654', subject: 'Hello there', message: 'x' });
    expect(bad.status).toBe(400);
    expect(bad.body.errors).toHaveProperty('categoryId');
    const empty = await platform('POST', 'tickets', { userId, subject: 'Hello there', message: '<script>alert(1)</script>' });
    expect(empty.status).toBe(400);
    expect((await s.database.db.select().from(tickets)).length).toBe(before);
  });

  it('assigns to a sub-admin who may view tickets; "Assigned to me" is the caller\'s; bulk close skips what it cannot close', async () => {
    const t1 = await openTicket('Assign me');
    const t2 = await openTicket('Another');
    expect((await call(s, 'POST', `/api/admin/tickets/${t1._id}/assign`, { token: agent.token, body: { adminId: noTickets.id } })).status).toBe(400);
    const ok = await call(s, 'POST', `/api/admin/tickets/${t1._id}/assign`, { token: agent.token, body: { adminId: agent.id } });
    expect(ok.body.result).toMatchObject({ assigneeId: agent.id, assignment: 'assigned' });
    const mine = await call(s, 'GET', '/api/admin/tickets', { token: agent.token, query: { assignment: 'mine' } });
    expect(mine.body.result.items.map((r: { _id: string }) => r._id)).toEqual([t1._id]);
    const superMine = await call(s, 'GET', '/api/admin/tickets', { token: superToken, query: { assignment: 'mine' } });
    expect(superMine.body.result.items).toEqual([]);
    const unassigned = await call(s, 'GET', '/api/admin/tickets', { token: agent.token, query: { assignment: 'unassigned', sort: 'waitingSince' } });
    expect(unassigned.body.result.items.map((r: { _id: string }) => r._id)).toContain(t2._id);
    await call(s, 'POST', `/api/admin/tickets/${t2._id}/close`, { token: agent.token, body: {} });
    const bulk = await call(s, 'POST', '/api/admin/tickets/bulk/close', { token: agent.token, body: { ids: [t1._id, t2._id] } });
    expect(bulk.body.result.done).toBe(1);
    expect(bulk.body.result.skipped).toEqual([{ id: t2._id, reason: expect.stringContaining('closed') }]);
  });
});

describe('races (real on PostgreSQL)', () => {
  it('the same Idempotency-Key sent 20 times at once opens one ticket and answers the same', async () => {
    const key = randomUUID();
    const subject = `Race ${randomBytes(3).toString('hex')}`;
    const answers = await Promise.all(
      Array.from({ length: 20 }, () => call(s, 'POST', '/api/platform/v1/tickets', { token: KEY, headers: { 'idempotency-key': key }, body: { userId, subject, message: 'Once only' } })),
    );
    expect(new Set(answers.map((a) => a.status))).toEqual(new Set([200]));
    expect(new Set(answers.map((a) => a.raw)).size).toBe(1);
    expect((await s.database.db.select().from(tickets).where(eq(tickets.subject, subject))).length).toBe(1);
  });

  it('two admins closing at once: one closes, the other gets 409; a reply and a user message at once both land, in order', async () => {
    const t = await openTicket('Close race');
    const both = await Promise.all([agent, { token: superToken }].map((a) => call(s, 'POST', `/api/admin/tickets/${t._id}/close`, { token: a.token, body: {} })));
    expect(both.map((r) => r.status).sort()).toEqual([200, 409]);
    const [reply, user] = await Promise.all([
      call(s, 'POST', `/api/admin/support-reply/${t._id}/messages`, { token: agent.token, body: { body: '<p>Racing reply</p>' } }),
      platform('POST', `tickets/${t._id}/messages`, { userId, message: 'Racing user' }),
    ]);
    expect([reply.status, user.status]).toEqual([200, 200]);
    const [row] = await s.database.db.select().from(tickets).where(eq(tickets.id, Number(t._id)));
    const view = (await platform('GET', `tickets/${t._id}`)).body.result;
    expect(row!.messageCount).toBe(3);
    // Whichever committed last decides the state, and the state agrees with the last message.
    const last = view.messages.at(-1);
    expect(row!.status).toBe(last.author === 'user' ? 'open' : 'answered');
    expect((row!.waitingSince === null)).toBe(row!.status !== 'open');
  });
});

describe('internal notes', () => {
  it('never reach the platform API nor a mail; a reply is mailed in its transaction', async () => {
    const t = await openTicket('Note test');
    const secret = `INTERNAL-${randomBytes(4).toString('hex')}`;
    const note = await call(s, 'POST', `/api/admin/support-reply/${t._id}/messages`, { token: agent.token, body: { body: `<p>${secret} user looks suspicious</p>`, internal: true } });
    expect(note.status).toBe(200);
    expect((await call(s, 'GET', `/api/admin/tickets/${t._id}`, { token: agent.token })).body.result.status).toBe('open');
    const reply = await call(s, 'POST', `/api/admin/support-reply/${t._id}/messages`, { token: agent.token, body: { body: '<p>We are <strong>on it</strong>.<script>x()</script></p>' } });
    expect(reply.body.result.body).toBe('<p>We are <strong>on it</strong>.</p>');
    await s.idle();
    const view = await platform('GET', `tickets/${t._id}`);
    expect(view.raw).not.toContain(secret);
    expect(view.body.result.messages.map((m: { author: string }) => m.author)).toEqual(['user', 'support']);
    const mails = await s.database.db.select().from(mailOutbox).where(eq(mailOutbox.templateKey, 'ticket_reply'));
    expect(mails.some((m) => m.text.includes('We are on it'))).toBe(true);
    for (const m of mails) expect(m.html + m.text + m.subject).not.toContain(secret);
    for (const m of s.mail) expect(m.html + m.text).not.toContain(secret);
    // The admin's conversation has it, apart.
    const conv = await call(s, 'GET', `/api/admin/support-reply/${t._id}`, { token: viewOnly.token });
    expect(conv.body.result.messages.find((m: { internal: boolean }) => m.internal).body).toContain(secret);
    expect((await call(s, 'GET', `/api/admin/support-reply/${t._id}`, { token: noTickets.token })).status).toBe(403);
  });
});

describe('attachments', () => {
  const png = makePng(8, 8, (x, y) => [x * 30, y * 30, 120]);
  it('refuses SVG, HTML named .png, an oversized file and a polyglot, storing nothing', async () => {
    const t = await openTicket('Files');
    const svg = Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>');
    const html = Buffer.from('<!doctype html><html><script>alert(1)</script></html>');
    const big = Buffer.concat([png.subarray(0, png.length - 12), pngChunk('tEXt', Buffer.alloc(6 * 1024 * 1024, 0x41)), png.subarray(png.length - 12)]);
    const trailing = Buffer.concat([png, Buffer.from('<html><script>alert(1)</script></html>')]);
    const inside = Buffer.concat([png.subarray(0, 33), pngChunk('tEXt', Buffer.from('c\0<script>alert(1)</script>')), png.subarray(33)]);
    const exe = Buffer.concat([Buffer.from('MZ'), randomBytes(200)]);
    for (const [name, type, bytes, status] of [
      ['a.svg', 'image/svg+xml', svg, 400], ['b.png', 'image/png', html, 400], ['c.png', 'image/png', big, 413],
      ['d.png', 'image/png', trailing, 400], ['e.png', 'image/png', inside, 400], ['f.png', 'image/png', exe, 400],
    ] as const) {
      const res = await upload(agent.token, t._id, [{ name, type, bytes }]);
      expect(res.status, `${name}: ${JSON.stringify(res.body)}`).toBe(status);
    }
    expect(fs.existsSync(path.join(dataDir, 'uploads', 'tickets')) ? fs.readdirSync(path.join(dataDir, 'uploads', 'tickets')) : []).toEqual([]);
    expect((await upload(viewOnly.token, t._id, [{ name: 'ok.png', type: 'image/png', bytes: png }])).status).toBe(403);
  });

  it('serves a good one as an attachment with nosniff, to admins with the right only', async () => {
    const t = await openTicket('Screenshot');
    const up = await upload(agent.token, t._id, [{ name: '../../etc/Screen shot<1>.png', type: 'text/html', bytes: png }]);
    expect(up.status, JSON.stringify(up.body)).toBe(200);
    const file = up.body.result[0];
    expect(file).toMatchObject({ filename: 'Screen shot_1_.png', contentType: 'image/png', pending: true });
    // Not sent yet: only its uploader sees it.
    expect((await call(s, 'GET', `/api/admin/support-reply/${t._id}/attachments/${file._id}`, { token: viewOnly.token })).status).toBe(404);
    const sent = await call(s, 'POST', `/api/admin/support-reply/${t._id}/messages`, { token: agent.token, body: { body: '<p>See the picture</p>', attachmentIds: [file._id] } });
    expect(sent.body.result.attachments).toHaveLength(1);
    const res = await s.app.inject({ method: 'GET', url: `/api/admin/support-reply/${t._id}/attachments/${file._id}`, headers: { authorization: `Bearer ${viewOnly.token}` } });
    expect(res.statusCode).toBe(200);
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(String(res.headers['content-disposition'])).toMatch(/^attachment; filename="Screen shot_1_.png"/);
    expect(res.headers['content-type']).toBe('image/png');
    // Re-encoded by the image pipeline: the same picture, pixel for pixel, in the bytes the record counts.
    expect(res.rawPayload.length).toBe(file.size);
    expect(await sharp(res.rawPayload).metadata()).toMatchObject({ format: 'png', width: 8, height: 8 });
    expect((await sharp(res.rawPayload).raw().toBuffer()).equals(await sharp(png).raw().toBuffer())).toBe(true);
    expect((await call(s, 'GET', `/api/admin/support-reply/${t._id}/attachments/${file._id}`, { token: noTickets.token })).status).toBe(403);
    // The platform sees the name only, never the file.
    expect((await platform('GET', `tickets/${t._id}`)).body.result.messages[1].attachments).toEqual(['Screen shot_1_.png']);
  });
});

describe('image attachments', () => {
  it('a JPEG with EXIF GPS is re-encoded as a JPEG without any metadata; a PDF is kept as sent', async () => {
    const t = await openTicket('Photo of the receipt');
    const jpeg = await sharp({ create: { width: 300, height: 200, channels: 3, background: '#aa5500' } })
      .jpeg()
      .withExif({ IFD0: { Make: 'PitbossCam', Copyright: 'Someone' }, IFD3: { GPSLatitudeRef: 'N', GPSLatitude: '48/1 51/1 2964/100', GPSLongitudeRef: 'E', GPSLongitude: '2/1 17/1 4020/100' } })
      .toBuffer();
    const sent = await sharp(jpeg).metadata();
    expect(sent.exif?.includes(Buffer.from('PitbossCam'))).toBe(true);
    expect(sent.exif?.includes(Buffer.from([0x25, 0x88])) || sent.exif?.includes(Buffer.from([0x88, 0x25]))).toBe(true);
    const pdf = Buffer.from('%PDF-1.4\n1 0 obj << /Type /Catalog >> endobj\ntrailer << /Root 1 0 R >>\n%%EOF\n');
    const up = await upload(agent.token, t._id, [{ name: 'receipt.jpg', type: 'image/jpeg', bytes: jpeg }, { name: 'statement.pdf', type: 'application/pdf', bytes: pdf }]);
    expect(up.status, JSON.stringify(up.body)).toBe(200);
    const [photo, statement] = up.body.result;
    expect(photo).toMatchObject({ filename: 'receipt.jpg', contentType: 'image/jpeg' });
    expect(statement).toMatchObject({ filename: 'statement.pdf', contentType: 'application/pdf', size: pdf.length });
    const get = (id: string) => s.app.inject({ method: 'GET', url: `/api/admin/support-reply/${t._id}/attachments/${id}`, headers: { authorization: `Bearer ${agent.token}` } });
    const stored = (await get(photo._id)).rawPayload;
    expect(stored.length).toBe(photo.size);
    const meta = await sharp(stored).metadata();
    expect([meta.format, meta.width, meta.height]).toEqual(['jpeg', 300, 200]);
    expect(meta.exif).toBeUndefined();
    expect(meta.xmp).toBeUndefined();
    expect(meta.iptc).toBeUndefined();
    expect(stored.includes(Buffer.from('PitbossCam'))).toBe(false);
    expect((await get(statement._id)).rawPayload.equals(pdf)).toBe(true);
  });

  it('refuses a PDF cut short or holding a script, and a damaged image, storing nothing', async () => {
    const t = await openTicket('Broken files');
    const before = fs.readdirSync(path.join(dataDir, 'uploads', 'tickets')).length;
    const cut = Buffer.from('%PDF-1.4\n1 0 obj << /Type /Catalog >> endobj\n');
    const script = Buffer.from('%PDF-1.4\n<script>alert(1)</script>\n%%EOF\n');
    const png = makePng(8, 8, () => [1, 2, 3]);
    const damaged = Buffer.concat([png.subarray(0, 40), Buffer.alloc(20, 0x41), png.subarray(60)]);
    for (const [name, bytes, reason] of [['cut.pdf', cut, 'The PDF has no end marker'], ['script.pdf', script, 'markup'], ['damaged.png', damaged, 'PNG']] as const) {
      const res = await upload(agent.token, t._id, [{ name, type: 'application/octet-stream', bytes }]);
      expect(res.status, name).toBe(400);
      expect(res.body.message, name).toContain(`${name}: `);
      expect(res.body.errors.file, name).toContain(reason);
    }
    expect(fs.readdirSync(path.join(dataDir, 'uploads', 'tickets')).length).toBe(before);
  });
});

describe('notifications', () => {
  it('a new ticket reaches only admins who may view tickets; read state is per admin', async () => {
    const t = await openTicket('Notify me');
    const mineList = await call(s, 'GET', '/api/admin/notifications', { token: agent.token });
    const n = mineList.body.result.items.find((i: { link: string }) => i.link === `/support-reply/${t._id}`);
    expect(n).toMatchObject({ kind: 'ticket_new', read: false, restriction: 'Support Ticket' });
    const other = await call(s, 'GET', '/api/admin/notifications', { token: noTickets.token });
    expect(other.body.result.items.filter((i: { kind: string }) => i.kind.startsWith('ticket'))).toEqual([]);
    expect(other.body.result.unread).toBe(0);
    expect((await call(s, 'POST', `/api/admin/notifications/${n._id}/read`, { token: noTickets.token, body: {} })).status).toBe(404);
    const unread = mineList.body.result.unread;
    const read = await call(s, 'POST', `/api/admin/notifications/${n._id}/read`, { token: agent.token, body: {} });
    expect(read.body.result.unread).toBe(unread - 1);
    const all = await call(s, 'POST', '/api/admin/notifications/read-all', { token: agent.token, body: {} });
    expect(all.body.result.unread).toBe(0);
    expect((await call(s, 'GET', '/api/admin/notifications', { token: superToken })).body.result.unread).toBeGreaterThan(0);
  });

  it('conditions are notified once per record by the job', async () => {
    const t = await openTicket('Old one');
    await s.database.db.update(tickets).set({ waitingSince: new Date(Date.now() - 10 * 3600_000) }).where(eq(tickets.id, Number(t._id)));
    const first = await runNotificationConditions(s.database.db, { waitingMinutes: 60 });
    expect(first!.ticketWaiting).toBeGreaterThanOrEqual(1);
    const second = await runNotificationConditions(s.database.db, { waitingMinutes: 60 });
    expect(second!.ticketWaiting).toBe(0);
    const rows = await s.database.db.select().from(notifications).where(eq(notifications.kind, 'ticket_waiting'));
    expect(rows.filter((r) => r.link === `/support-reply/${t._id}`)).toHaveLength(1);
    // Its text says how long, not a clock time in one zone (every admin reads it in their own).
    expect(rows.find((r) => r.link === `/support-reply/${t._id}`)!.body).toMatch(/ has waited over 10 hours for an answer \(priority \w+\)$/);
    const waited = async (seconds: number) =>
      (await queryRows<{ w: string }>(s.database.db, sql`select ${waitedFor(sql`now() - make_interval(secs => ${seconds}::int)`, sql`now()`)} as w`))[0]!.w;
    const said: string[] = [];
    for (const seconds of [30, 1_800, 3_659, 3_600 * 10 + 59, 86_400 + 3_600, 2 * 86_400 + 7_200]) said.push(await waited(seconds));
    expect(said).toEqual(['1 minute', '30 minutes', '1 hour', '10 hours', '1 day', '2 days']);
  });

  it('the stream tells each admin only what they may see', async () => {
    await s.app.listen({ port: 0, host: '127.0.0.1' });
    const port = (s.app.server.address() as AddressInfo).port;
    const open = async (token: string) => {
      const events: StreamEvent[] = [];
      const ctrl = new AbortController();
      const res = await fetch(`http://127.0.0.1:${port}/api/admin/notifications/stream`, { headers: { authorization: `Bearer ${token}` }, signal: ctrl.signal });
      expect(res.status).toBe(200);
      const parser = new EventStreamParser((e) => events.push(e));
      const reader = res.body!.getReader();
      void (async () => {
        try {
          for (;;) {
            const { done, value } = await reader.read();
            if (done) return;
            parser.push(Buffer.from(value).toString('utf8'));
          }
        } catch {
          /* aborted */
        }
      })();
      return { events, close: () => ctrl.abort() };
    };
    const withRight = await open(agent.token);
    const without = await open(noTickets.token);
    const until = async (pred: () => boolean) => {
      for (let i = 0; i < 100 && !pred(); i++) await new Promise((r) => setTimeout(r, 50));
    };
    await until(() => withRight.events.length > 0 && without.events.length > 0);
    expect(withRight.events[0]!.event).toBe('count');
    const t = await openTicket('Live one');
    await until(() => withRight.events.some((e) => e.event === 'notification'));
    const got = withRight.events.find((e) => e.event === 'notification')!;
    expect(JSON.parse(got.data).item).toMatchObject({ kind: 'ticket_new', link: `/support-reply/${t._id}` });
    await new Promise((r) => setTimeout(r, 300));
    expect(without.events.filter((e) => e.event === 'notification')).toEqual([]);
    expect((await fetch(`http://127.0.0.1:${port}/api/admin/notifications/stream`, { headers: { authorization: `Bearer ${viewOnly.token}` } })).status).toBe(403);
    withRight.close();
    without.close();
  });
});
