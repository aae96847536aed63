// Ctrl/Cmd+K: navigation and actions from the keyboard. Commands come from the areas and their tabs, the
// profiles, a few global actions (new message, restart the local stack, theme), and the screen on show
// (context-commands.ts: "Retry 3 selected DLQ entries…" while 3 are selected).
import { useMemo, useRef, useState } from 'react';
import { errorMessage } from '../bridge/client';
import { useBridge, useBridgeMutation } from '../bridge/react';
import { MoonIcon, PlusIcon, RefreshIcon, SendIcon, UserIcon } from '../ui/icons';
import { useModalDialog } from '../ui/Dialog';
import { toast } from '../ui/toast';
import { AREA_TABS } from './area-tabs';
import { AREAS } from './areas';
import { contextCommands, type PaletteCommand, useContextCommandStore } from './context-commands';
import { useProfiles } from './data';
import { fuzzyScore } from './fuzzy';
import { useNav } from './nav';
import { confirmStackRestart } from './stack-restart';
import { useTheme } from './theme';

type Command = PaletteCommand;

export function CommandPalette({ open, onClose }: { open: boolean; onClose: () => void }) {
  const ref = useRef<HTMLDialogElement>(null);
  const onDialogClose = useModalDialog(ref, open, onClose);
  const navigate = useNav((state) => state.navigate);
  const setTheme = useTheme((state) => state.setPreference);
  const bridge = useBridge();
  const { data } = useProfiles();
  // Select the stored object (stable between changes) and flatten here: a selector that builds a new
  // array on every call would re-render forever.
  const bySource = useContextCommandStore((state) => state.bySource);
  const fromScreen = useMemo(() => contextCommands({ bySource }), [bySource]);
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
    for (const [areaId, tabs] of Object.entries(AREA_TABS) as [
      keyof typeof AREA_TABS,
      (typeof AREA_TABS)[keyof typeof AREA_TABS],
    ][]) {
      const area = AREAS.find((candidate) => candidate.id === areaId);
      for (const tab of tabs) {
        if ('under' in tab) continue;
        list.push({
          id: `tab:${areaId}:${tab.id}`,
          title: `Open ${area?.label ?? areaId} › ${tab.label}`,
          group: 'Navigate',
          icon: area?.icon ?? SendIcon,
          run: () => navigate(areaId, tab.id),
        });
      }
    }
    list.unshift(
      {
        id: 'messages:new',
        title: 'New message',
        group: 'Messages',
        icon: SendIcon,
        run: () => navigate('messages', 'compose'),
      },
      {
        id: 'messages:batch',
        title: 'New batch of messages',
        group: 'Messages',
        icon: SendIcon,
        run: () => navigate('messages', 'batch'),
      },
    );
    list.unshift(...fromScreen);
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
          navigate('stack');
          void confirmStackRestart().then((ok) => {
            if (!ok) return;
            bridge
              .call('stack.restart', {})
              .catch((error: unknown) => toast.error('Restart failed', errorMessage(error)));
          });
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
  }, [data, navigate, activate, bridge, setTheme, fromScreen]);

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
