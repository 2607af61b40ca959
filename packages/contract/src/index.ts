export * from './constants.js';
export * from './envelope.js';
export * from './restrictions.js';
export * from './routes.js';
export * from './access.js';
export * from './schemas/auth.js';
export * from './schemas/site-settings.js';
export * from './schemas/admins.js';
