import { lazy } from 'react';
import { registerRecordContext } from '../../resources/extensions';

const WithdrawalRisk = lazy(() => import('./WithdrawalRisk').then((m) => ({ default: m.WithdrawalRisk })));

/** Beside a withdrawal's decision: the user's risk (history, address, holds). */
registerRecordContext('withdrawals', (id) => <WithdrawalRisk id={id} />);
