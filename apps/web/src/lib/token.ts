import { TOKEN_STORAGE_KEY } from '@pitboss/contract';

/** The admin token lives in local storage under `admin_token` (seed §9). */
export function getToken(): string | null {
  try {
    return globalThis.localStorage?.getItem(TOKEN_STORAGE_KEY) ?? null;
  } catch {
    return null;
  }
}

export function setToken(token: string): void {
  localStorage.setItem(TOKEN_STORAGE_KEY, token);
}

export function removeToken(): void {
  try {
    localStorage.removeItem(TOKEN_STORAGE_KEY);
  } catch {
    // storage unavailable: nothing stored, nothing to remove
  }
}
