import type { AdminDetail, PageAccess, RestrictionEntry } from '@pitboss/contract';
import { createStore } from '../lib/createStore';
import { getToken } from '../lib/token';

/** Auth state (seed §3): isAuth, userId, role, restriction; plus the admin record and the current page's access. */
export interface AuthState {
  isAuth: boolean;
  userId: string | null;
  role: string | null;
  restriction: RestrictionEntry[];
  admin: AdminDetail | null;
  currentPageAccess: PageAccess;
}

const NO_ACCESS: PageAccess = { canView: false, canEdit: false };

export const loggedOutState = (): AuthState => ({
  isAuth: false,
  userId: null,
  role: null,
  restriction: [],
  admin: null,
  currentPageAccess: NO_ACCESS,
});

export const authStore = createStore<AuthState>({ ...loggedOutState(), isAuth: getToken() !== null });

export function setAdmin(admin: AdminDetail): void {
  authStore.set({ isAuth: true, userId: admin._id, role: admin.role, restriction: admin.restriction, admin });
}

export function setPageAccess(access: PageAccess): void {
  const current = authStore.get().currentPageAccess;
  const rights = [...(access.rights ?? [])].sort();
  const same = current.canView === access.canView && current.canEdit === access.canEdit && (current.rights ?? []).join() === rights.join();
  if (same) return;
  authStore.set({ currentPageAccess: { canView: access.canView, canEdit: access.canEdit, rights } });
}

export function resetAuth(): void {
  authStore.set(loggedOutState());
}

export const useAdmin = () => authStore.use((s) => s.admin);
/** What the signed-in admin may do on the current page; hide or disable edit controls when `canEdit` is false. */
export const usePageAccess = () => authStore.use((s) => s.currentPageAccess);
