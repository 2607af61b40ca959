import { SIDEBAR_ENTRIES, SIDEBAR_GROUPS, type AccessSubject } from '@pitboss/contract';
import { describe, expect, it } from 'vitest';
import { activeEntry, sidebarSections } from '../src/app/navigation';

const superAdmin = { role: 'superadmin', restriction: [] };
const faqViewer: AccessSubject = { role: 'subadmin', restriction: [{ name: 'FAQ', canView: true, canEdit: false }] };

describe('the sidebar', () => {
  it('shows every group and entry to the super admin, in order', () => {
    const sections = sidebarSections(superAdmin);
    expect(sections.map((s) => s.group)).toEqual([...SIDEBAR_GROUPS]);
    expect(sections.flatMap((s) => s.entries)).toEqual([...SIDEBAR_ENTRIES]);
  });

  it('shows the one-page groups of the seed as single links', () => {
    const single = sidebarSections(superAdmin).filter((s) => s.single).map((s) => s.group);
    expect(single).toEqual(['Dashboard', 'Awaiting my approval', 'Reward Card', 'Offline Store', 'Site Setting']);
  });

  it('shows a sub-admin only the entries they may view', () => {
    const sections = sidebarSections(faqViewer);
    expect(sections.map((s) => s.group)).toEqual(['Dashboard', 'Admin Settings']);
    expect(sections[1]!.entries.map((e) => e.path)).toEqual(['/faq']);
  });

  it('highlights the page, or the list page of the same module', () => {
    const entries = SIDEBAR_ENTRIES;
    expect(activeEntry(entries, '/faq')?.path).toBe('/faq');
    expect(activeEntry(entries, '/update-faq/12')?.path).toBe('/faq');
    expect(activeEntry(entries, '/add-admin')?.path).toBe('/sub-admin');
    expect(activeEntry(entries, '/sub-Admin-login-History')?.path).toBe('/sub-Admin-login-History');
    expect(activeEntry(entries, '/update-market/5')?.path).toBe('/markets');
    expect(activeEntry(entries, '/add-market')?.path).toBe('/markets');
    expect(activeEntry(entries, '/update-series/2')?.path).toBe('/series');
    expect(activeEntry(entries, '/event-resolution/4')?.path).toBe('/resolution-history');
    expect(activeEntry(entries, '/event-history/4')?.path).toBe('/events');
    expect(activeEntry(entries, '/profile')).toBeUndefined();
    expect(activeEntry(entries, '/nowhere')).toBeUndefined();
  });
});
