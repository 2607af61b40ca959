import { lazy } from 'react';
import { registerFieldType } from '../../resources/extensions';

const OddsField = lazy(() => import('./OddsField').then((m) => ({ default: m.OddsField })));

/** A pack's odds: a percentage per card tier, as `[{ tierId, percent }]`; none is "the settings' odds". */
registerFieldType('odds', {
  Input: OddsField,
  empty: () => null,
  fromRecord: (value) => (Array.isArray(value) ? value.map((o: { tierId: unknown; percent: unknown }) => ({ tierId: String(o.tierId), percent: String(o.percent) })) : null),
});
