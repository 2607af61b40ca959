// What a module shows beside one of its records where a decision is taken: its record drawer and
// its actions' dialogs (a withdrawal's risk context). By resource name; lazy, so a list page that
// never opens a record loads none of it.
import { lazy, Suspense, type ReactNode } from 'react';
import { Skeleton } from '@mantine/core';

const WithdrawalRisk = lazy(() => import('../modules/withdrawals/WithdrawalRisk').then((m) => ({ default: m.WithdrawalRisk })));

const CONTEXT: Readonly<Record<string, (id: string) => ReactNode>> = {
  withdrawals: (id) => <WithdrawalRisk id={id} />,
};

/** The record's decision context, or null for a resource without one. */
export function recordContext(resource: string, id: string): ReactNode {
  const render = CONTEXT[resource];
  return render ? <Suspense fallback={<Skeleton h={120} radius="sm" />}>{render(id)}</Suspense> : null;
}
