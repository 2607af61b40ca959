// Money fields (`type: 'money'`): typed in the coin's units, posted as minor units.
import { fieldApplies, formatUnits, parseUnits, type FormFieldSpec, type MoneySpec } from '@pitboss/contract';
import { useQueries } from '@tanstack/react-query';
import { createContext, useContext } from 'react';
import { fetchChoices } from './api';

/** A coin as a money field needs it: how many decimals, and what to call it. */
export interface MoneyUnit {
  decimals: number;
  symbol: string;
}

/**
 * Each money field's coin, by field key: absent while its coin is not chosen (or not read yet), null
 * while the field is not money (`MoneySpec.when`: a whole number typed as is).
 */
export type MoneyUnits = Readonly<Record<string, MoneyUnit | null>>;

/** The units of the form being shown, for its money fields (set by the form, read by `FormField`). */
export const MoneyUnitsTarget = createContext<MoneyUnits>({});
export const useMoneyUnit = (key: string): MoneyUnit | null | undefined => useContext(MoneyUnitsTarget)[key];

/** What a money field waits for, from its reference field's key: `packId` → pack, `rewardCoinId` → coin. */
export const chosenThing = (key: string): string => (key.replace(/Id$/, '').split(/(?=[A-Z])/).pop() ?? 'coin').toLowerCase();

/** Whether a money field is money with these values (`MoneySpec.when`: a reward's threshold counts deposits only for that condition). */
export const isMoneyNow = (money: MoneySpec, values: Readonly<Record<string, unknown>>): boolean => !money.when || fieldApplies({ visibleWhen: money.when }, values);

const unitOf = (source: Readonly<Record<string, unknown>> | undefined, money: MoneySpec): MoneyUnit | undefined => {
  const decimals = source?.[money.decimals];
  const symbol = source?.[money.symbol];
  return typeof decimals === 'number' && Number.isInteger(decimals) && typeof symbol === 'string' ? { decimals, symbol } : undefined;
};

/**
 * The coin of each money field of a form, for these values (or the record being edited): read from
 * the record itself, or from the choice of its reference field (`MoneySpec.field`), asked of that
 * field's choices endpoint by id (the picker's own query, so cached with it). `ready`: every chosen
 * coin has been read (or could not be).
 */
export function useMoneyUnits(fields: readonly FormFieldSpec[], source: Readonly<Record<string, unknown>> | undefined, choicesFor: (key: string) => string): { units: MoneyUnits; ready: boolean } {
  const lookups = fields.flatMap((f) => {
    if (f.type !== 'money' || !f.money.field) return [];
    const id = source?.[f.money.field];
    const valid = typeof id === 'string' && /^\d{1,18}$/.test(id);
    return [{ key: f.key, money: f.money, path: choicesFor(f.money.field), id: valid ? id : '' }];
  });
  const results = useQueries({
    queries: lookups.map((l) => ({
      queryKey: ['choices', l.path, 'ids', l.id],
      queryFn: ({ signal }: { signal: AbortSignal }) => fetchChoices(l.path, { ids: l.id }, signal),
      enabled: l.id !== '',
      staleTime: 60_000,
      retry: false,
    })),
  });
  const units: Record<string, MoneyUnit | null> = {};
  let ready = true;
  for (const f of fields) {
    if (f.type !== 'money' || f.money.field) continue;
    const unit = unitOf(source, f.money);
    if (unit) units[f.key] = unit;
  }
  lookups.forEach((l, i) => {
    const r = results[i]!;
    if (l.id === '') return;
    if (r.isPending) ready = false;
    const unit = unitOf(r.data?.items.find((c) => c._id === l.id)?.extra ?? undefined, l.money);
    if (unit) units[l.key] = unit;
  });
  for (const f of fields) if (f.type === 'money' && !isMoneyNow(f.money, source ?? {})) units[f.key] = null;
  return { units, ready };
}

/** A stored amount (minor units) as the field shows it: in the coin's units when the coin is known. */
export function moneyInputValue(field: FormFieldSpec, value: unknown, unit: MoneyUnit | null | undefined, values: Readonly<Record<string, unknown>>): string {
  if (value === null || value === undefined) return '';
  const text = String(value);
  if (field.type !== 'money' || !unit || !isMoneyNow(field.money, values) || !/^-?\d{1,30}$/.test(text)) return text;
  return formatUnits(text, unit.decimals);
}

/**
 * The body with each money field's typed amount as minor units (what the API takes), or the fields'
 * errors: too many decimals for the coin, negative or zero where not allowed, out of range, or no
 * coin chosen yet. Empty amounts are left to the schema (required or not).
 */
export function moneyBody(
  fields: readonly FormFieldSpec[],
  body: Record<string, unknown>,
  units: MoneyUnits,
  values: Readonly<Record<string, unknown>>,
): { ok: true; body: Record<string, unknown> } | { ok: false; errors: Record<string, string> } {
  const out = { ...body };
  const errors: Record<string, string> = {};
  for (const f of fields) {
    if (f.type !== 'money' || !(f.key in body) || !isMoneyNow(f.money, values)) continue;
    const typed = body[f.key];
    if (typed === null || typed === undefined || (typeof typed === 'string' && typed.trim() === '')) continue;
    const unit = units[f.key];
    if (!unit) {
      errors[f.key] = f.money.field ? `Choose the ${chosenThing(f.money.field)} first` : 'The coin’s decimals are unknown';
      continue;
    }
    const parsed = parseUnits(String(typed), unit.decimals, unit.symbol, f.money);
    if (parsed.ok) out[f.key] = parsed.value.toString();
    else errors[f.key] = parsed.error;
  }
  return Object.keys(errors).length ? { ok: false, errors } : { ok: true, body: out };
}
