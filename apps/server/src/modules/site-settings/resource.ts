import { siteSettingsResource } from '@pitboss/contract';
import { defineSingle } from '../../resources/single.js';
import { loadSiteSettings, toRecord, updateSiteSettings } from './service.js';

/** `/site-setting` on the single-record mechanism (the seed's `getSiteSetting` / `updateSiteDetails`). */
export const siteSettingsDef = defineSingle({
  spec: siteSettingsResource,
  load: loadSiteSettings,
  toRecord,
  update: updateSiteSettings,
});
