// Light and dark themes follow the OS unless the user picks one (kept in localStorage: UI state only).
import { create } from 'zustand';

export type ThemePreference = 'system' | 'light' | 'dark';
const KEY = 'switchyard.theme';

function systemTheme(): 'light' | 'dark' {
  return window.matchMedia('(prefers-color-scheme: dark)').matches ? 'dark' : 'light';
}

function apply(preference: ThemePreference): void {
  document.documentElement.dataset.theme = preference === 'system' ? systemTheme() : preference;
}

interface ThemeState {
  preference: ThemePreference;
  setPreference: (preference: ThemePreference) => void;
}

export const useTheme = create<ThemeState>((set) => ({
  preference: 'system',
  setPreference: (preference) => {
    localStorage.setItem(KEY, preference);
    apply(preference);
    set({ preference });
  },
}));

/** Runs before the first render so there is no flash of the wrong theme. */
export function initTheme(): void {
  const stored = localStorage.getItem(KEY);
  const preference: ThemePreference = stored === 'light' || stored === 'dark' ? stored : 'system';
  useTheme.setState({ preference });
  apply(preference);
  window.matchMedia('(prefers-color-scheme: dark)').addEventListener('change', () => {
    if (useTheme.getState().preference === 'system') apply('system');
  });
}
