import { z } from 'zod';
import { reasonCodes, reasonCoded, reasonOptions } from '../lib/reasons.js';
import { defineStates, stateValues, stateOptions } from '../resources/states.js';
import { recordFields, resourceSpec } from '../resources/spec.js';

// ── Kill switch (docs/markets.md, "Kill switch") ────────────────────────────
/**
 * One pull of the kill switch: every open market halted (halt reason `kill_switch`) and every
 * running trade bot stopped (its quotes cancelled), in one transaction, under the named right
 * Markets › kill-switch and a typed confirmation. Releasing it resumes exactly the markets it halted
 * that are still halted by it and restarts exactly the bots it stopped that are still stopped.
 */
export const killSwitchStates = defineStates({
  noun: 'Kill switch',
  states: [
    { value: 'engaged', label: 'Engaged', color: 'red' },
    { value: 'released', label: 'Released', color: 'gray' },
  ],
  initial: 'engaged',
  transitions: {
    release: { from: ['engaged'], to: 'released' },
  },
});

export const KILL_SWITCH_REASONS = reasonCodes([
  { code: 'incident', label: 'Operational incident' },
  { code: 'security', label: 'Security incident' },
  { code: 'market_abuse', label: 'Suspected market abuse' },
  { code: 'engine_fault', label: 'Matching or settlement fault' },
  { code: 'price_source', label: 'Price or settlement sources down' },
]);

/** What must be typed to pull it. */
export const KILL_SWITCH_WORDS = 'HALT ALL';

const engage = reasonCoded(KILL_SWITCH_REASONS, {
  haltMarkets: z.boolean({ error: 'Halt every open market: yes or no' }).default(true),
  stopBots: z.boolean({ error: 'Stop every running bot: yes or no' }).default(true),
  confirmation: z.literal(KILL_SWITCH_WORDS, { error: `Type ${KILL_SWITCH_WORDS} exactly, in capitals` }),
});

/** The engagement's body: what to stop, why, and the typed confirmation. */
export const killSwitchEngage = engage.input.refine((v) => (v as { haltMarkets?: boolean }).haltMarkets !== false || (v as { stopBots?: boolean }).stopBots !== false, {
  message: 'Choose what to stop: the markets, the bots, or both',
  path: ['haltMarkets'],
});

export const killSwitchRecord = z.object({
  _id: recordFields.id, status: z.enum(stateValues(killSwitchStates)),
  /** "Kill switch #12: 8 markets, 2 bots". */
  title: z.string(),
  haltMarkets: z.boolean(), stopBots: z.boolean(),
  reasonCode: z.string(), reason: z.string().nullable(),
  /** What it halted and stopped (tickers and bot names), and how many. */
  marketsHalted: z.number().int(), botsStopped: z.number().int(), markets: z.string(), bots: z.string(),
  engagedByEmail: z.string().nullable(), createdAt: recordFields.at,
  releasedByEmail: z.string().nullable(), releasedAt: recordFields.atOrNull,
  /** At release: how many came back, and what did not, with why (closed since, halted again for another reason…). */
  marketsResumed: z.number().int().nullable(), botsRestarted: z.number().int().nullable(), notResumed: z.string().nullable(),
}).strict();
export type KillSwitchRecord = z.infer<typeof killSwitchRecord>;

export const killSwitchesResource = resourceSpec(killSwitchRecord, {
  name: 'kill-switches', label: 'Kill switch', plural: 'Kill switch', restriction: 'Markets',
  pages: { list: '/kill-switch', add: '/engage-kill-switch' },
  createRight: { named: 'kill-switch' },
  adding: { label: 'Engage the kill switch', submit: 'Halt and stop now', danger: true },
  titleField: 'title',
  columns: [
    { key: 'createdAt', label: 'Engaged', type: 'date', sortable: true },
    { key: 'status', label: 'Status', type: 'status' },
    { key: 'reasonCode', label: 'Reason', type: 'text' },
    { key: 'reason', label: 'Note', type: 'text' },
    { key: 'marketsHalted', label: 'Markets halted', type: 'number' },
    { key: 'botsStopped', label: 'Bots stopped', type: 'number' },
    { key: 'engagedByEmail', label: 'Engaged by', type: 'text' },
    { key: 'releasedAt', label: 'Released', type: 'date', sortable: true },
    { key: 'releasedByEmail', label: 'Released by', type: 'text', hidden: true },
    { key: 'markets', label: 'Markets', type: 'longtext', hidden: true },
    { key: 'bots', label: 'Bots', type: 'longtext', hidden: true },
    { key: 'marketsResumed', label: 'Markets resumed', type: 'number', hidden: true },
    { key: 'botsRestarted', label: 'Bots restarted', type: 'number', hidden: true },
    { key: 'notResumed', label: 'Not resumed', type: 'longtext', hidden: true },
  ],
  filters: [
    { key: 'status', label: 'Status', type: 'oneOf', options: stateOptions(killSwitchStates) },
    { key: 'reasonCode', label: 'Reason', type: 'oneOf', options: reasonOptions(KILL_SWITCH_REASONS) },
    { key: 'createdAt', label: 'Engaged', type: 'dateRange' },
  ],
  defaultSort: '-createdAt',
  deleteMode: 'none',
  states: killSwitchStates,
  form: [
    { key: 'haltMarkets', label: 'Halt every open market', type: 'switch', initial: true, description: 'Each is halted with the reason “Kill switch”; resting orders stay in the book, nothing trades' },
    { key: 'stopBots', label: 'Stop every running trade bot', type: 'switch', initial: true, description: 'Each bot stops and its quotes are cancelled (their holds go back)' },
    ...engage.fields,
    { key: 'confirmation', label: `Type ${KILL_SWITCH_WORDS} to confirm`, type: 'text', required: true, placeholder: KILL_SWITCH_WORDS },
  ],
  create: killSwitchEngage,
  actions: [
    {
      name: 'release', label: 'Resume what it halted', right: { named: 'kill-switch' }, subject: { title: 'Release {title}' },
      confirm: 'Resumes the markets it halted that are still halted by it (and can trade: their close time ahead), and starts the bots it stopped that are still stopped. Anything halted or stopped since for another reason stays as it is.',
    },
  ],
});
