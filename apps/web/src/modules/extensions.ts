// What each module adds to the resource mechanism (field types, record tabs, decision context),
// registered by the module's own extensions.tsx. Loaded once, with the signed-in layout.
import './booster-packs/extensions';
import './content/extensions';
import './reward-card-cms/extensions';
import './sub-admins/extensions';
import './withdrawals/extensions';
