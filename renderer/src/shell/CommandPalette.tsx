// Ctrl/Cmd+K: navigation and actions from the keyboard. Commands come from the areas, the profiles and a
// few global actions; features can add their own later through `extraCommands`.
import { useMemo, useRef, useState } from 'react';
import { errorMessage } from '../bridge/client';
import { useBridge, useBridgeMutation } from '../bridge/react';
import { MoonIcon, PlusIcon, RefreshIcon, UserIcon } from '../ui/icons';
import { useModalDialog } from '../ui/Dialog';
import { toast } from '../ui/toast';
import { AREAS } from './areas';
import { useProfiles } from './data';
import { fuzzyScore } from './fuzzy';
import { useNav } from './nav';
import { useTheme } from './theme';

interface Command {
  id: string;
  title: string;
  group: string;
  icon: React.ComponentType<{ width?: number; height?: number }>;
  run: () => void;
}

export function CommandPalette({ open, onClose }: { open: boolean; onClose: () => void }) {
  const ref = useRef<HTMLDialogElement>(null);
  const onDialogClose = useModalDialog(ref, open, onClose);
  const navigate = useNav((state) => state.navigate);
  const setTheme = useTheme((state) => state.setPreference);
  const bridge = useBridge();
  const { data } = useProfiles();
  const activate = useBridgeMutation('profiles.activate', {
    onError: (error) => toast.error('Could not switch profile', errorMessage(error)),
  });

  const commands = useMemo<Command[]>(() => {
    const list: Command[] = AREAS.map((area) => ({
      id: `go:${area.id}`,
      title: `Go to ${area.label}`,
      group: 'Navigate',
      icon: area.icon,
      run: () => navigate(area.id),
    }));
    for (const profile of data?.profiles ?? []) {
      if (profile.id === data?.activeId) continue;
      list.push({
        id: `profile:${profile.id}`,
        title: `Switch to profile ${profile.name} (${profile.env})`,
        group: 'Profiles',
        icon: UserIcon,
        run: () => activate.mutate({ id: profile.id }),
      });
    }
    list.push(
      {
        id: 'profile:new',
        title: 'New profile…',
        group: 'Profiles',
        icon: PlusIcon,
        run: () => navigate('profiles', 'new'),
      },
      {
        id: 'stack:restart',
        title: 'Restart the local stack',
        group: 'Local stack',
        icon: RefreshIcon,
        run: () => {
          bridge
            .call('stack.restart', {})
            .catch((error: unknown) => toast.error('Restart failed', errorMessage(error)));
          navigate('stack');
        },
      },
      {
        id: 'theme:system',
        title: 'Theme: follow the system',
        group: 'Appearance',
        icon: MoonIcon,
        run: () => setTheme('system'),
      },
      {
        id: 'theme:light',
        title: 'Theme: light',
        group: 'Appearance',
        icon: MoonIcon,
        run: () => setTheme('light'),
      },
      {
        id: 'theme:dark',
        title: 'Theme: dark',
        group: 'Appearance',
        icon: MoonIcon,
        run: () => setTheme('dark'),
      },
    );
    return list;
  }, [data, navigate, activate, bridge, setTheme]);

  const run = (command: Command) => {
    onClose();
    command.run();
  };

  return (
    <dialog
      ref={ref}
      className="dialog palette"
      aria-label="Command palette"
      onClose={onDialogClose}
      onMouseDown={(event) => event.target === ref.current && onClose()}
    >
      {/* Mounted only while open, so every opening starts with an empty query. */}
      {open ? <PaletteSearch commands={commands} onRun={run} /> : null}
    </dialog>
  );
}

// The query lives here rather than in the palette: state that is reset by an effect after opening lets
// keys typed straight after Ctrl+K land on the previous query.
function PaletteSearch({ commands, onRun }: { commands: Command[]; onRun: (command: Command) => void }) {
  const [query, setQuery] = useState('');
  const [selected, setSelected] = useState(0);
  const matches = useMemo(
    () =>
      commands
        .map((command) => ({ command, score: fuzzyScore(query, `${command.title} ${command.group}`) }))
        .filter((entry): entry is { command: Command; score: number } => entry.score !== null)
        .sort((a, b) => b.score - a.score)
        .map((entry) => entry.command),
    [commands, query],
  );
  const run = (command: Command | undefined) => {
    if (command) onRun(command);
  };

  return (
    <>
      <input
        className="palette-input"
        placeholder="Type a command or an area…"
        aria-label="Command"
        role="combobox"
        aria-expanded="true"
        aria-controls="palette-list"
        aria-activedescendant={matches[selected] ? `palette-${matches[selected].id}` : undefined}
        autoFocus
        value={query}
        onChange={(event) => {
          setQuery(event.target.value);
          setSelected(0);
        }}
        onKeyDown={(event) => {
          if (event.key === 'ArrowDown') {
            event.preventDefault();
            setSelected((index) => Math.min(index + 1, matches.length - 1));
          } else if (event.key === 'ArrowUp') {
            event.preventDefault();
            setSelected((index) => Math.max(index - 1, 0));
          } else if (event.key === 'Enter') {
            event.preventDefault();
            run(matches[selected]);
          }
        }}
      />
      <ul className="palette-list" id="palette-list" role="listbox">
        {matches.length === 0 ? <li className="palette-empty">No command matches “{query}”.</li> : null}
        {matches.map((command, index) => {
          const Icon = command.icon;
          return (
            <li
              key={command.id}
              id={`palette-${command.id}`}
              role="option"
              aria-selected={index === selected}
              className="palette-item"
              onMouseEnter={() => setSelected(index)}
              onClick={() => run(command)}
            >
              <Icon />
              {command.title}
              <span className="group">{command.group}</span>
            </li>
          );
        })}
      </ul>
    </>
  );
}
