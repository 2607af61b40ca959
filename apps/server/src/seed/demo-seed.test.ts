import { describeDemoPlatform } from '../../test/demo-platform.js';

// The demo platform seeded live (a first start without a fresh snapshot); its invariants are in test/demo-platform.ts.
describeDemoPlatform('seed');
