import { describe, expect, it } from 'vitest';
import { adminCalls, call, makeSubAdmin, serverFile, type TestServer } from '../../../test/helpers.js';

/**
 * Saved views through the API: an admin's own views of a list, shared ones seen by every admin who
 * may view that list (and by no one else), only the owner changing a view, the super admin deleting
 * any shared one, each admin's default per list, validation that changes nothing, and the audit.
 */
let s: TestServer;
let token: string;
serverFile((f) => ({ s, token } = f));
const api = adminCalls(() => s, () => token);
const put = (body: unknown, as = token) => call(s, 'PUT', '/api/admin/saved-views/default', { token: as, body });

const FAQ_VIEWER = [{ name: 'FAQ' as const, canView: true, canEdit: false }];
const state = { filters: { status: 'active' }, sort: '-updatedAt', q: 'refund', columns: ['question', 'status'] };
const viewsOf = async (list: string, as = token) => {
  const res = await api.get('saved-views', { list }, as);
  expect(res.status).toBe(200);
  return res.body.result.items as { _id: string; name: string; shared: boolean; mine: boolean; isDefault: boolean; owner: { name: string }; state: typeof state }[];
};
const auditOf = async (id: string) => (await api.get('audit-log', { resource: 'saved-views', recordId: id })).body.result.items as { action: string; before: unknown; after: unknown }[];

describe('saved views', () => {
  it('saves a private view that only its owner sees, shares it with admins who may view the list, never with others', async () => {
    const owner = await makeSubAdmin(s, FAQ_VIEWER, token);
    const peer = await makeSubAdmin(s, FAQ_VIEWER, token);
    const outsider = await makeSubAdmin(s, [{ name: 'Tags', canView: true, canEdit: true }], token);

    const created = await api.post('saved-views', { list: '/faq', name: 'Refund questions', state }, owner.token);
    expect(created.status).toBe(200);
    const view = created.body.result;
    expect(view).toMatchObject({ list: '/faq', name: 'Refund questions', shared: false, mine: true, isDefault: false, state });

    expect((await viewsOf('/faq', owner.token)).map((v) => v.name)).toEqual(['Refund questions']);
    expect(await viewsOf('/faq', peer.token)).toEqual([]);
    // Another's private view is not found, whatever is asked of it.
    expect((await api.patch(`saved-views/${view._id}`, { name: 'Mine now' }, peer.token)).status).toBe(404);
    expect((await api.del(`saved-views/${view._id}`, peer.token)).status).toBe(404);
    expect((await put({ list: '/faq', id: view._id }, peer.token)).status).toBe(404);

    const shared = await api.patch(`saved-views/${view._id}`, { shared: true }, owner.token);
    expect(shared.status).toBe(200);
    expect(shared.body.result.shared).toBe(true);
    const seen = await viewsOf('/faq', peer.token);
    expect(seen).toHaveLength(1);
    expect(seen[0]).toMatchObject({ name: 'Refund questions', shared: true, mine: false, state });
    expect(seen[0]!.owner.name).toMatch(/^Sub /);

    // An admin who may not view the list gets neither its views nor its ids.
    expect((await api.get('saved-views', { list: '/faq' }, outsider.token)).status).toBe(403);
    expect((await api.post('saved-views', { list: '/faq', name: 'Sneaky', state }, outsider.token)).status).toBe(403);
    expect((await api.del(`saved-views/${view._id}`, outsider.token)).status).toBe(404);
    expect((await put({ list: '/faq', id: view._id }, outsider.token)).status).toBe(403);
    expect((await put({ list: '/tags', id: view._id }, outsider.token)).status).toBe(404);
    expect((await api.del(`saved-views/${view._id}`, owner.token)).status).toBe(200);
  });

  it('only the owner renames, reshares or deletes; a lower admin cannot touch another\'s shared view; the super admin may delete it', async () => {
    const owner = await makeSubAdmin(s, FAQ_VIEWER, token);
    const peer = await makeSubAdmin(s, [{ name: 'FAQ', canView: true, canEdit: true }], token);
    const view = (await api.post('saved-views', { list: '/faq', name: 'Shared one', shared: true, state }, owner.token)).body.result;

    for (const body of [{ name: 'Taken over' }, { shared: false }, { state: { ...state, q: '' } }]) {
      const res = await api.patch(`saved-views/${view._id}`, body, peer.token);
      expect(res.status).toBe(403);
    }
    expect((await api.del(`saved-views/${view._id}`, peer.token)).status).toBe(403);
    // The super admin edits no one's view either.
    expect((await api.patch(`saved-views/${view._id}`, { name: 'Renamed by root' }, token)).status).toBe(403);
    expect((await viewsOf('/faq', owner.token)).find((v) => v._id === view._id)).toMatchObject({ name: 'Shared one', shared: true, state });

    const renamed = await api.patch(`saved-views/${view._id}`, { name: 'Shared, renamed' }, owner.token);
    expect(renamed.status).toBe(200);
    expect(renamed.body.result.name).toBe('Shared, renamed');

    // A private view is the owner's alone: the super admin does not find it to delete.
    const secret = (await api.post('saved-views', { list: '/faq', name: 'Private', state }, owner.token)).body.result;
    expect((await api.del(`saved-views/${secret._id}`)).status).toBe(404);

    expect((await api.del(`saved-views/${view._id}`)).status).toBe(200);
    expect((await viewsOf('/faq', owner.token)).map((v) => v.name)).toEqual(['Private']);
    const audit = await auditOf(view._id);
    expect(audit.map((e) => e.action).sort()).toEqual(['create', 'delete', 'update']);
    expect(audit.find((e) => e.action === 'delete')!.before).toMatchObject({ name: 'Shared, renamed', shared: true, list: '/faq' });
    expect(audit.find((e) => e.action === 'update')).toMatchObject({ before: { name: 'Shared one' }, after: { name: 'Shared, renamed' } });

    expect((await api.del(`saved-views/${secret._id}`, owner.token)).status).toBe(200);
  });

  it('keeps one default per admin and list: own or shared; gone when the view is unshared or deleted', async () => {
    const owner = await makeSubAdmin(s, FAQ_VIEWER, token);
    const peer = await makeSubAdmin(s, FAQ_VIEWER, token);
    const mine = (await api.post('saved-views', { list: '/faq', name: 'Mine', state, isDefault: true }, owner.token)).body.result;
    expect(mine.isDefault).toBe(true);
    const shared = (await api.post('saved-views', { list: '/faq', name: 'For all', shared: true, state }, owner.token)).body.result;

    const set = await put({ list: '/faq', id: shared._id }, peer.token);
    expect(set.status).toBe(200);
    expect(set.body.result.defaultId).toBe(shared._id);
    expect((await viewsOf('/faq', peer.token)).find((v) => v.isDefault)?._id).toBe(shared._id);
    // The owner's default is their own.
    expect((await viewsOf('/faq', owner.token)).filter((v) => v.isDefault).map((v) => v.name)).toEqual(['Mine']);
    // A view of another list is not this list's default.
    expect((await put({ list: '/tags', id: mine._id })).status).toBe(404);

    // Unshared, it stops being the peer's default (and the peer's list).
    expect((await api.patch(`saved-views/${shared._id}`, { shared: false }, owner.token)).status).toBe(200);
    expect(await viewsOf('/faq', peer.token)).toEqual([]);
    expect((await api.patch(`saved-views/${shared._id}`, { shared: true }, owner.token)).status).toBe(200);
    expect((await viewsOf('/faq', peer.token)).some((v) => v.isDefault)).toBe(false);

    expect((await put({ list: '/faq', id: null }, owner.token)).body.result.defaultId).toBeNull();
    expect((await viewsOf('/faq', owner.token)).some((v) => v.isDefault)).toBe(false);
    const audit = await auditOf(mine._id);
    expect(audit.filter((e) => e.action === 'set_default').map((e) => e.after)).toEqual([{ list: '/faq', default: null }, { list: '/faq', default: Number(mine._id) }]);
    // Deleted, a view is no one's default any more.
    expect((await put({ list: '/faq', id: shared._id }, peer.token)).status).toBe(200);
    expect((await api.del(`saved-views/${shared._id}`, owner.token)).status).toBe(200);
    expect((await api.del(`saved-views/${mine._id}`, owner.token)).status).toBe(200);
    expect(await viewsOf('/faq', peer.token)).toEqual([]);
  });

  it('refuses what is not a view with 400, and a second view of the same name with 409, changing nothing', async () => {
    const owner = await makeSubAdmin(s, FAQ_VIEWER, token);
    const view = (await api.post('saved-views', { list: '/faq', name: 'Keep me', state }, owner.token)).body.result;
    const bad: [unknown, string][] = [
      [{ list: '/faq', name: '   ', state }, 'name'],
      [{ list: '/faq', name: 'x'.repeat(81), state }, 'name'],
      [{ list: '/nowhere', name: 'Lost', state }, 'list'],
      [{ list: '/faq', name: 'Bad filter', state: { ...state, filters: { 'status; drop': 'x' } } }, 'state'],
      [{ list: '/faq', name: 'Bad sort', state: { ...state, sort: 'updatedAt desc' } }, 'state'],
      [{ list: '/faq', name: 'Extra', state: { ...state, page: 3 } }, 'state'],
      [{ list: '/faq', name: 'Long', state: { ...state, q: 'q'.repeat(201) } }, 'state'],
      [{ list: '/faq', name: 'Extra key', state, owner: 1 }, 'owner'],
    ];
    for (const [body, field] of bad) {
      const res = await api.post('saved-views', body, owner.token);
      expect(res.status, JSON.stringify(body).slice(0, 80)).toBe(400);
      expect(Object.keys(res.body.errors ?? {}).some((k) => k.startsWith(field)), JSON.stringify(res.body)).toBe(true);
    }
    expect((await api.patch(`saved-views/${view._id}`, {}, owner.token)).status).toBe(400);
    expect((await api.patch(`saved-views/${view._id}`, { name: '' }, owner.token)).status).toBe(400);
    expect((await api.patch('saved-views/abc', { name: 'X' }, owner.token)).status).toBe(400);
    expect((await put({ list: '/faq', id: 'abc' }, owner.token)).status).toBe(400);

    const dup = await api.post('saved-views', { list: '/faq', name: 'KEEP ME', state }, owner.token);
    expect(dup.status).toBe(409);
    expect(dup.body.errors.name).toBeTruthy();
    const other = (await api.post('saved-views', { list: '/faq', name: 'Other', state }, owner.token)).body.result;
    expect((await api.patch(`saved-views/${other._id}`, { name: 'keep me' }, owner.token)).status).toBe(409);
    // The same name on another list, or another admin's, is no clash.
    expect((await api.post('saved-views', { list: '/faq', name: 'Keep me', state })).status).toBe(200);

    const views = (await viewsOf('/faq', owner.token)).filter((v) => v.mine);
    expect(views.map((v) => v.name)).toEqual(['Keep me', 'Other']);
    expect(views[0]!.state).toEqual(state);
    expect((await auditOf(view._id)).map((e) => e.action)).toEqual(['create']);
  });

  it('saves views of a list view page and of a list open to every admin (own sign-ins)', async () => {
    const anyone = await makeSubAdmin(s, [], token);
    const res = await api.post('saved-views', { list: '/loginHistory', name: 'Recent', state: { sort: '-createdAt' } }, anyone.token);
    expect(res.status).toBe(200);
    expect(res.body.result.state).toEqual({ filters: {}, sort: '-createdAt', q: '', columns: null });
    expect((await api.post('saved-views', { list: '/faq', name: 'No', state: {} }, anyone.token)).status).toBe(403);
  });
});
