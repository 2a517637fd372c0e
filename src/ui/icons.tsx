// Inline icons: no icon font, no requests, and `currentColor` follows the theme.
const svg = { width: 20, height: 20, viewBox: '0 0 24 24', fill: 'none', 'aria-hidden': true } as const;
const stroke = { stroke: 'currentColor', strokeWidth: 2, strokeLinecap: 'round', strokeLinejoin: 'round' } as const;

export const ChatIcon = () => (
  <svg {...svg} width={26} height={26}>
    <path {...stroke} d="M21 12a8 8 0 0 1-11.6 7.1L4 20.5l1.4-4.9A8 8 0 1 1 21 12z" />
  </svg>
);

export const CloseIcon = () => (
  <svg {...svg}>
    <path {...stroke} d="M6 6l12 12M18 6L6 18" />
  </svg>
);

export const SendIcon = () => (
  <svg {...svg}>
    <path {...stroke} d="M4 12l16-8-6 16-2.5-6.5L4 12z" />
  </svg>
);

export const BackIcon = () => (
  <svg {...svg}>
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
