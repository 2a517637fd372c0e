// Inline icons: no icon font, no requests, and `currentColor` follows the theme.
const svg = { width: 20, height: 20, viewBox: '0 0 24 24', fill: 'none', 'aria-hidden': true } as const;
const stroke = { stroke: 'currentColor', strokeWidth: 2, strokeLinecap: 'round', strokeLinejoin: 'round' } as const;

export const CloseIcon = () => (
  <svg {...svg}>
    <path {...stroke} d="M6 6l12 12M18 6L6 18" />
  </svg>
);

// Send and Back point the way the language reads: mirrored right to left (.directional).
export const SendIcon = () => (
  <svg {...svg} className="directional">
    <path {...stroke} d="M4 12l16-8-6 16-2.5-6.5L4 12z" />
  </svg>
);

export const BackIcon = () => (
  <svg {...svg} className="directional">
    <path {...stroke} d="M15 6l-6 6 6 6" />
  </svg>
);

export const MembersIcon = () => (
  <svg {...svg}>
    <path {...stroke} d="M16 19v-1a4 4 0 0 0-4-4H7a4 4 0 0 0-4 4v1M9.5 10a3.5 3.5 0 1 0 0-7 3.5 3.5 0 0 0 0 7zM21 19v-1a4 4 0 0 0-3-3.9M15.5 3.1a3.5 3.5 0 0 1 0 6.8" />
  </svg>
);

export const ThreadsIcon = () => (
  <svg {...svg}>
    <path {...stroke} d="M4 5h16v10H9l-5 4V5zM8 9h8M8 12h5" />
  </svg>
);

export const BellIcon = () => (
  <svg {...svg}>
    <path {...stroke} d="M6 16V11a6 6 0 1 1 12 0v5l2 2H4l2-2zM10 20a2 2 0 0 0 4 0" />
  </svg>
);

export const PlusIcon = () => (
  <svg {...svg}>
    <path {...stroke} d="M12 5v14M5 12h14" />
  </svg>
);

export const FileIcon = () => (
  <svg {...svg}>
    <path {...stroke} d="M14 3H7a2 2 0 0 0-2 2v14a2 2 0 0 0 2 2h10a2 2 0 0 0 2-2V8l-5-5zM14 3v5h5" />
  </svg>
);

export const PollIcon = () => (
  <svg {...svg}>
    <path {...stroke} d="M5 20V10M12 20V4M19 20v-7" />
  </svg>
);

export const PinIcon = () => (
  <svg {...svg}>
    <path {...stroke} d="M12 21s-7-6.2-7-11.5a7 7 0 0 1 14 0C19 14.8 12 21 12 21zM12 12a2.5 2.5 0 1 0 0-5 2.5 2.5 0 0 0 0 5z" />
  </svg>
);

export const PushpinIcon = () => (
  <svg {...svg} width={12} height={12} className="pin-icon">
    <path {...stroke} d="M9 4h6l-1 6 3 3H7l3-3-1-6zM12 13v7" />
  </svg>
);

export const SearchIcon = () => (
  <svg {...svg}>
    <path {...stroke} d="M11 18a7 7 0 1 0 0-14 7 7 0 0 0 0 14zM20 20l-4-4" />
  </svg>
);

// Play, or pause while playing. Media controls keep their direction right to left (not .directional).
export const PlayIcon = ({ pause }: { pause?: boolean }) => (
  <svg {...svg}>
    <path fill="currentColor" d={pause ? 'M7 5h4v14H7zM13 5h4v14h-4z' : 'M8 5v14l11-7z'} />
  </svg>
);
