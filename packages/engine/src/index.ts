export * from './constants.js';
export * from './events.js';
export * from './book.js';
export * from './fees.js';
export * from './positions.js';
export * from './settlement.js';
