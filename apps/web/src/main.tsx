import '@mantine/core/styles.css';
import '@mantine/notifications/styles.css';
import './styles.css';
import { MantineProvider } from '@mantine/core';
import { TOKEN_STORAGE_KEY } from '@pitboss/contract';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { createBrowserRouter } from 'react-router';
import { RouterProvider } from 'react-router/dom';
import { buildRoutes, patchPrivateRoutes } from './app/routes';
import { cssVariablesResolver, theme } from './app/theme';
import { Toaster } from './components/Toaster';
import { reloadAdminDetail } from './app/guards';
import { endSession, refreshRights, registerRightsRefresh, registerSessionHandlers } from './lib/session';
import { authStore } from './stores/auth';
import { toast } from './lib/toast';

const router = createBrowserRouter(buildRoutes(), { patchRoutesOnNavigation: patchPrivateRoutes });

registerSessionHandlers({
  navigate: (to) => router.navigate(to, { replace: true }),
  // Once on /login, nothing of the previous admin stays in the cache.
  afterLeave: () => void import('./lib/queryClient').then((m) => m.queryClient.clear()),
});

// Changed rights: re-read them, then re-run the route check on the current page.
// A right taken away while the admin is on its page: the route check moves them, and says why.
registerRightsRefresh(async () => {
  const here = router.state.location.pathname;
  const admin = await reloadAdminDetail();
  if (!admin) return;
  await router.revalidate();
  const moved = router.state.location.pathname !== here;
  const { checkNavigation } = await import('./app/navigationCheck');
  if (moved && !checkNavigation(admin, here).allowed) toast.error('Your access to that page was removed: you are on the first page you may view');
});
document.addEventListener('visibilitychange', () => {
  if (document.visibilityState === 'visible' && authStore.get().isAuth) refreshRights(60_000);
});

// After a new deployment an open tab may ask for chunks that are gone: load the new version once.
window.addEventListener('vite:preloadError', (event) => {
  const key = 'pitboss_reloaded_for_chunks';
  if (sessionStorage.getItem(key) === location.pathname) return;
  sessionStorage.setItem(key, location.pathname);
  event.preventDefault();
  location.reload();
});

// Signing out in another tab ends the session here too.
window.addEventListener('storage', (event) => {
  if (event.key === TOKEN_STORAGE_KEY && event.newValue === null && authStore.get().isAuth) endSession();
});

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <MantineProvider theme={theme} cssVariablesResolver={cssVariablesResolver} defaultColorScheme="auto">
      <Toaster />
      <RouterProvider router={router} />
    </MantineProvider>
  </StrictMode>,
);
