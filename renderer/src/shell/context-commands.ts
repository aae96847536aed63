// Commands a screen offers the palette while it is shown and only while they apply ("Retry 3 selected
// DLQ entries…" exists while 3 are selected). A screen registers them with useContextCommands under its
// own name; they are gone when it unmounts.
import { type ComponentType, useEffect } from 'react';
import { create } from 'zustand';

export interface PaletteCommand {
  id: string;
  title: string;
  group: string;
  icon: ComponentType<{ width?: number; height?: number }>;
  run: () => void;
}

interface ContextCommandsState {
  bySource: Record<string, PaletteCommand[]>;
  set: (source: string, commands: PaletteCommand[]) => void;
  clear: (source: string) => void;
}

export const useContextCommandStore = create<ContextCommandsState>((set) => ({
  bySource: {},
  set: (source, commands) => set((state) => ({ bySource: { ...state.bySource, [source]: commands } })),
  clear: (source) =>
    set((state) => {
      const { [source]: _gone, ...rest } = state.bySource;
      return { bySource: rest };
    }),
}));

/** Every registered command, in registration order. */
export function contextCommands(state: Pick<ContextCommandsState, 'bySource'>): PaletteCommand[] {
  return Object.values(state.bySource).flat();
}

/** Offers `commands` (memoise them) in the palette while the calling component is mounted. */
export function useContextCommands(source: string, commands: PaletteCommand[]): void {
  const setCommands = useContextCommandStore((state) => state.set);
  const clear = useContextCommandStore((state) => state.clear);
  useEffect(() => setCommands(source, commands), [source, commands, setCommands]);
  useEffect(() => () => clear(source), [source, clear]);
}
