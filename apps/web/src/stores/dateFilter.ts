import { createStore } from '../lib/createStore';

/** Date filter state (seed §3): whether a date filter is applied, and its values (e.g. `{from, to}` as YYYY-MM-DD). */
export interface DateFilterState {
  isDate: boolean;
  filters: Record<string, string>;
}

export const dateFilterStore = createStore<DateFilterState>({ isDate: false, filters: {} });

export function setDateFilters(filters: Record<string, string>): void {
  const isDate = Object.values(filters).some((v) => v !== '');
  dateFilterStore.set({ isDate, filters });
}

export function clearDateFilters(): void {
  dateFilterStore.set({ isDate: false, filters: {} });
}

export const useDateFilter = () => dateFilterStore.use((s) => s);
