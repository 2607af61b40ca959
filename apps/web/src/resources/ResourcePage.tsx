import { mayCreate, resourceForPage, singleForPage, specForView, viewFilters } from '@pitboss/contract';
import { Skeleton, Stack } from '@mantine/core';
import { lazy, Suspense } from 'react';
import { Navigate, useMatches, useParams } from 'react-router';
import { usePageAccess } from '../stores/auth';
import type { RouteHandle } from '../app/routes';

// List and form are separate chunks: a list page does not load the form, the permission matrix or the history.
const ResourceListPage = lazy(() => import('./components/ResourceListPage').then((m) => ({ default: m.ResourceListPage })));
const SingleRecordPage = lazy(() => import('./components/SingleRecordPage').then((m) => ({ default: m.SingleRecordPage })));
const ResourceFormPage = lazy(() => import('./components/ResourceFormPage').then((m) => ({ default: m.ResourceFormPage })));

function PageSkeleton() {
  return (
    <Stack gap="md">
      <Skeleton h={34} w={240} />
      <Skeleton h={320} radius="md" />
    </Stack>
  );
}

/**
 * The page of every route a resource declares (list, add, update, or a single record's page): the
 * route's pattern, looked up with the contract's `resourceForPage`, picks
 * the resource and the view. A new resource needs no web code.
 */
export default function ResourcePage() {
  const matches = useMatches();
  const params = useParams();
  const handle = matches[matches.length - 1]?.handle as RouteHandle | undefined;
  const single = handle ? singleForPage(handle.route.path) : undefined;
  const found = handle ? resourceForPage(handle.route.path) : undefined;
  const access = usePageAccess();
  if (single) {
    return (
      <Suspense fallback={<PageSkeleton />}>
        <SingleRecordPage key={single.name} spec={single} />
      </Suspense>
    );
  }
  if (!found) throw new Error(`No resource declares the page ${handle?.route.path ?? '(unknown)'}`);
  if (found.page === 'view') {
    // A preset of the resource's list (a queue, an event's markets): its fixed filters come from the route.
    const { view } = found;
    const fixed = viewFilters(view, params);
    if (!fixed) return <Navigate to={found.spec.pages.list} replace />;
    return (
      <Suspense fallback={<PageSkeleton />}>
        <ResourceListPage
          key={`${view.page}:${JSON.stringify(fixed)}`} spec={specForView(found.spec, view)} fixed={fixed} listPage={view.page} title={view.title} description={view.description}
          subject={view.subject && params[view.subject.param] ? { spec: view.subject, id: params[view.subject.param]! } : undefined}
        />
      </Suspense>
    );
  }
  const { spec, page } = found;
  // The record's id is the update pattern's one placeholder, whatever its name (`{id}`, `{userid}`).
  const id = page === 'update' ? Object.values(params).find((v): v is string => typeof v === 'string') : undefined;
  // An admin who may view but not create goes to the list instead of an empty disabled form.
  if (page === 'add' && access.canView && !mayCreate(spec, access)) return <Navigate to={spec.pages.list} replace />;
  return (
    <Suspense fallback={<PageSkeleton />}>
      {page === 'list' ? (
        <ResourceListPage key={spec.name} spec={spec} listPage={spec.pages.list} />
      ) : (
        // A new key per record: moving between records starts a fresh form.
        <ResourceFormPage key={`${spec.name}:${id ?? 'new'}`} spec={spec} id={id} />
      )}
    </Suspense>
  );
}
