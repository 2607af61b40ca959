import { describe, expect, it } from 'vitest';
import { seedContent } from '../../seed/content.js';
import { call, makeSubAdmin, serverFile, type TestServer } from '../../../test/helpers.js';

let s: TestServer;
let token: string;

serverFile((m) => ({ s, token } = m));

const create = (body: Record<string, unknown>, as = token) => call(s, 'POST', '/api/admin/cms-pages', { token: as, body });
const page = { slug: 'terms-of-service', title: 'Terms of service', body: '<h2>Terms</h2><p>Be <strong>nice</strong>.</p>', metaDescription: 'The rules.' };

describe('CMS pages', () => {
  it('creates a draft with a sanitised body; the public endpoint does not serve it', async () => {
    const res = await create({ ...page, body: `${page.body}<script>alert(1)</script><p onclick="x()"><a href="javascript:alert(1)">link</a><img src=x onerror=alert(1)></p>` });
    expect(res.status).toBe(200);
    expect(res.body.result).toMatchObject({ slug: 'terms-of-service', status: 'draft', publishedAt: null });
    expect(res.body.result.body).not.toMatch(/script|onclick|onerror|javascript:|<img/i);
    const pub = await call(s, 'GET', '/api/public/cms/terms-of-service');
    expect(pub.status).toBe(404);
    expect(pub.headers['cache-control']).toBe('no-store');
  });

  it('refuses a bad or taken slug and an empty body, changing nothing', async () => {
    for (const slug of ['Terms', 'terms_of_service', '-terms', 'terms--x', 'terms/../x', '']) {
      const res = await create({ ...page, slug });
      expect(res.status, slug).toBe(400);
      expect(res.body.errors.slug).toBeTruthy();
    }
    const taken = await create(page);
    expect(taken.status).toBe(409);
    expect(taken.body.errors.slug).toMatch(/Another page/);
    const empty = await create({ ...page, slug: 'empty', body: '<script>alert(1)</script>' });
    expect(empty.status).toBe(400);
    const list = await call(s, 'GET', '/api/admin/cms-pages', { token });
    expect(list.body.result.total).toBe(1);
  });

  it('publishes: the public endpoint serves it without a session, cacheable, with an ETag; unpublish takes it away', async () => {
    const list = await call(s, 'GET', '/api/admin/cms-pages', { token, query: { q: 'terms' } });
    const id = list.body.result.items[0]._id as string;
    const pub = await call(s, 'POST', `/api/admin/cms-pages/${id}/publish`, { token });
    expect(pub.status).toBe(200);
    expect(pub.body.result).toMatchObject({ status: 'published' });
    expect(pub.body.result.publishedAt).toBeTruthy();
    expect((await call(s, 'POST', `/api/admin/cms-pages/${id}/publish`, { token })).status).toBe(409);

    const res = await call(s, 'GET', '/api/public/cms/terms-of-service');
    expect(res.status).toBe(200);
    expect(res.body.result).toMatchObject({ slug: 'terms-of-service', title: 'Terms of service', metaTitle: 'Terms of service', metaDescription: 'The rules.' });
    expect(res.body.result.body).toContain('<strong>nice</strong>');
    expect(res.body.result.body).not.toMatch(/script|onclick|javascript:/i);
    expect(res.headers['cache-control']).toMatch(/^public, max-age=60/);
    expect(res.headers.etag).toBeTruthy();
    const cached = await call(s, 'GET', '/api/public/cms/terms-of-service', { headers: { 'if-none-match': String(res.headers.etag) } });
    expect(cached.status).toBe(304);
    // RFC 9110: `*` matches the page that exists, a list matches any of its tags, the weak form is the same tag.
    const etag = String(res.headers.etag);
    for (const inm of ['*', `"other", ${etag}`, etag.replace(/^W\//, '')]) {
      expect((await call(s, 'GET', '/api/public/cms/terms-of-service', { headers: { 'if-none-match': inm } })).status, inm).toBe(304);
    }
    expect((await call(s, 'GET', '/api/public/cms/terms-of-service', { headers: { 'if-none-match': '"other"' } })).status).toBe(200);
    expect((await call(s, 'GET', '/api/public/cms/nope', { headers: { 'if-none-match': '*' } })).status).toBe(404);
    // An unknown slug, any spelling: 404.
    expect((await call(s, 'GET', '/api/public/cms/nope')).status).toBe(404);
    expect((await call(s, 'GET', '/api/public/cms/TERMS-OF-SERVICE')).status).toBe(404);

    // Published: the slug is fixed and the page cannot be deleted.
    const slug = await call(s, 'PATCH', `/api/admin/cms-pages/${id}`, { token, body: { slug: 'terms' } });
    expect(slug.status).toBe(409);
    expect((await call(s, 'DELETE', `/api/admin/cms-pages/${id}`, { token })).status).toBe(409);
    // An edit of the body changes what the platform gets (and its ETag).
    expect((await call(s, 'PATCH', `/api/admin/cms-pages/${id}`, { token, body: { body: '<p>New terms</p>' } })).status).toBe(200);
    const edited = await call(s, 'GET', '/api/public/cms/terms-of-service', { headers: { 'if-none-match': String(res.headers.etag) } });
    expect(edited.status).toBe(200);
    expect(edited.body.result.body).toBe('<p>New terms</p>');

    expect((await call(s, 'POST', `/api/admin/cms-pages/${id}/unpublish`, { token })).status).toBe(200);
    expect((await call(s, 'GET', '/api/public/cms/terms-of-service')).status).toBe(404);
    expect((await call(s, 'DELETE', `/api/admin/cms-pages/${id}`, { token })).status).toBe(200);
  });

  it('previews a body as it would be saved', async () => {
    const res = await call(s, 'POST', '/api/admin/cms-pages/preview', { token, body: { body: '<p>Hi<script>alert(1)</script></p><iframe src="https://x"></iframe>' } });
    expect(res.status).toBe(200);
    expect(res.body.result.html).toBe('<p>Hi</p>');
  });

  it('rights: view reads, edit writes and publishes, no right gets 403', async () => {
    const viewer = await makeSubAdmin(s, [{ name: 'CMS Pages', canView: true, canEdit: false }], token);
    const editor = await makeSubAdmin(s, [{ name: 'CMS Pages', canView: true, canEdit: true }], token);
    const none = await makeSubAdmin(s, [{ name: 'FAQ', canView: true, canEdit: true }], token);
    expect((await call(s, 'GET', '/api/admin/cms-pages', { token: viewer.token })).status).toBe(200);
    expect((await create({ ...page, slug: 'viewer-page' }, viewer.token)).status).toBe(403);
    expect((await call(s, 'GET', '/api/admin/cms-pages', { token: none.token })).status).toBe(403);
    expect((await call(s, 'POST', '/api/admin/cms-pages/preview', { token: none.token, body: { body: '<p>x</p>' } })).status).toBe(403);
    // The preview is a read: a viewer sees the page as it will be served.
    expect((await call(s, 'POST', '/api/admin/cms-pages/preview', { token: viewer.token, body: { body: '<p>x</p>' } })).status).toBe(200);
    const made = await create({ ...page, slug: 'editor-page' }, editor.token);
    expect(made.status).toBe(200);
    expect((await call(s, 'POST', `/api/admin/cms-pages/${made.body.result._id}/publish`, { token: viewer.token })).status).toBe(403);
    expect((await call(s, 'POST', `/api/admin/cms-pages/${made.body.result._id}/publish`, { token: editor.token })).status).toBe(200);
    expect((await call(s, 'GET', '/api/public/cms/editor-page')).status).toBe(200);
  });

  it('the demo content: terms, privacy and about published, one draft; seeded once', async () => {
    const log = { info: () => undefined };
    expect(await seedContent(s.database.db, log)).toBe(true);
    for (const slug of ['terms', 'privacy', 'about']) {
      const res = await call(s, 'GET', `/api/public/cms/${slug}`);
      expect(res.status, slug).toBe(200);
      expect(res.body.result.body.length).toBeGreaterThan(50);
    }
    expect((await call(s, 'GET', '/api/public/cms/responsible-trading')).status).toBe(404);
    expect(await seedContent(s.database.db, log)).toBe(false);
  });
});
