// A small set of stroke icons (24×24 grid, currentColor), drawn here so the shell needs no icon library.
import type { SVGProps } from 'react';

type IconProps = SVGProps<SVGSVGElement>;

function icon(paths: string[], label: string) {
  const Icon = (props: IconProps) => (
    <svg
      viewBox="0 0 24 24"
      fill="none"
      stroke="currentColor"
      strokeWidth={1.8}
      strokeLinecap="round"
      strokeLinejoin="round"
      aria-hidden="true"
      {...props}
    >
      {paths.map((d) => (
        <path key={d} d={d} />
      ))}
    </svg>
  );
  Icon.displayName = label;
  return Icon;
}

export const SendIcon = icon(['M22 2 11 13', 'M22 2 15 22l-4-9-9-4 20-7z'], 'SendIcon');
export const GroupIcon = icon(
  [
    'M6 3v12',
    'M18 9a3 3 0 1 0 0-6 3 3 0 0 0 0 6z',
    'M6 21a3 3 0 1 0 0-6 3 3 0 0 0 0 6z',
    'M18 9a9 9 0 0 1-9 9',
  ],
  'GroupIcon',
);
export const GaugeIcon = icon(['M3.34 19a10 10 0 1 1 17.32 0', 'M12 14l4-5'], 'GaugeIcon');
export const WorkflowIcon = icon(['M3 5h6v6H3z', 'M15 13h6v6h-6z', 'M9 8h3a3 3 0 0 1 3 3v5'], 'WorkflowIcon');
export const InboxIcon = icon(
  [
    'M22 12h-6l-2 3h-4l-2-3H2',
    'M5.45 5.11 2 12v6a2 2 0 0 0 2 2h16a2 2 0 0 0 2-2v-6l-3.45-6.89A2 2 0 0 0 16.76 4H7.24a2 2 0 0 0-1.79 1.11z',
  ],
  'InboxIcon',
);
export const DatabaseIcon = icon(
  [
    'M12 8c4.97 0 9-1.34 9-3s-4.03-3-9-3-9 1.34-9 3 4.03 3 9 3z',
    'M21 12c0 1.66-4 3-9 3s-9-1.34-9-3',
    'M3 5v14c0 1.66 4 3 9 3s9-1.34 9-3V5',
  ],
  'DatabaseIcon',
);
export const UserIcon = icon(
  ['M20 21v-2a4 4 0 0 0-4-4H8a4 4 0 0 0-4 4v2', 'M12 11a4 4 0 1 0 0-8 4 4 0 0 0 0 8z'],
  'UserIcon',
);
/** A checklist: the Jobs screen (bulk work and how far it got). */
export const JobsIcon = icon(
  [
    'M10 6h10',
    'M10 12h10',
    'M10 18h10',
    'M3.5 6l1.5 1.5L8 4.5',
    'M3.5 12l1.5 1.5L8 10.5',
    'M3.5 18l1.5 1.5L8 16.5',
  ],
  'JobsIcon',
);
export const ServerIcon = icon(['M4 3h16v7H4z', 'M4 14h16v7H4z', 'M8 6.5h.01', 'M8 17.5h.01'], 'ServerIcon');
export const PlusIcon = icon(['M12 5v14', 'M5 12h14'], 'PlusIcon');
export const CopyIcon = icon(['M9 9h11v11H9z', 'M5 15H4V4h11v1'], 'CopyIcon');
export const TrashIcon = icon(['M3 6h18', 'M8 6V4h8v2', 'M19 6l-1 14H6L5 6'], 'TrashIcon');
export const CheckIcon = icon(['M20 6 9 17l-5-5'], 'CheckIcon');
export const AlertIcon = icon(
  [
    'M10.29 3.86 1.82 18a2 2 0 0 0 1.71 3h16.94a2 2 0 0 0 1.71-3L13.71 3.86a2 2 0 0 0-3.42 0z',
    'M12 9v4',
    'M12 17h.01',
  ],
  'AlertIcon',
);
export const InfoIcon = icon(
  ['M12 22a10 10 0 1 0 0-20 10 10 0 0 0 0 20z', 'M12 16v-4', 'M12 8h.01'],
  'InfoIcon',
);
export const RefreshIcon = icon(['M21 12a9 9 0 1 1-3-6.7L21 8', 'M21 3v5h-5'], 'RefreshIcon');
export const PlugIcon = icon(['M9 2v6', 'M15 2v6', 'M6 8h12v4a6 6 0 0 1-12 0z', 'M12 18v4'], 'PlugIcon');
export const UploadIcon = icon(
  ['M21 15v4a2 2 0 0 1-2 2H5a2 2 0 0 1-2-2v-4', 'M17 8l-5-5-5 5', 'M12 3v12'],
  'UploadIcon',
);
export const DownloadIcon = icon(
  ['M21 15v4a2 2 0 0 1-2 2H5a2 2 0 0 1-2-2v-4', 'M7 10l5 5 5-5', 'M12 15V3'],
  'DownloadIcon',
);
export const ChevronDownIcon = icon(['M6 9l6 6 6-6'], 'ChevronDownIcon');
export const SearchIcon = icon(['M11 19a8 8 0 1 0 0-16 8 8 0 0 0 0 16z', 'M21 21l-4.35-4.35'], 'SearchIcon');
export const MoonIcon = icon(['M21 12.79A9 9 0 1 1 11.21 3 7 7 0 0 0 21 12.79z'], 'MoonIcon');
export const ClockIcon = icon(['M12 21a9 9 0 1 0 0-18 9 9 0 0 0 0 18z', 'M12 7v5l3 2'], 'ClockIcon');
export const LockIcon = icon(['M5 11h14v10H5z', 'M8 11V7a4 4 0 0 1 8 0v4'], 'LockIcon');
export const XIcon = icon(['M18 6 6 18', 'M6 6l12 12'], 'XIcon');

// Workflow step types and small list marks: drawn here, never a Unicode glyph (⏸, ☾, ✉, ▸ …), which shows
// as an empty box where the system's fonts lack it (Debian's Chromium).
export const PlayIcon = icon(['M7 4v16l13-8z'], 'PlayIcon');
export const DotIcon = icon(['M12 16a4 4 0 1 0 0-8 4 4 0 0 0 0 8z'], 'DotIcon');
export const CircleIcon = icon(['M12 19a7 7 0 1 0 0-14 7 7 0 0 0 0 14z'], 'CircleIcon');
export const SwapIcon = icon(['M4 8h15', 'M15 4l4 4-4 4', 'M20 16H5', 'M9 12l-4 4 4 4'], 'SwapIcon');
export const PauseIcon = icon(['M8 5v14', 'M16 5v14'], 'PauseIcon');
export const MailIcon = icon(['M3 6h18v12H3z', 'M3 7l9 6 9-6'], 'MailIcon');
export const InvokeIcon = icon(['M6 4v8a4 4 0 0 0 4 4h9', 'M15 12l4 4-4 4'], 'InvokeIcon');
export const ParallelIcon = icon(['M9 5v14', 'M15 5v14'], 'ParallelIcon');
export const ChevronRightIcon = icon(['M9 6l6 6-6 6'], 'ChevronRightIcon');
