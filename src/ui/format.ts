const timeFormat = new Intl.DateTimeFormat(undefined, { hour: 'numeric', minute: '2-digit' });

export function formatTime(value: Date | string | undefined | null): string {
  if (!value) return '';
  const date = value instanceof Date ? value : new Date(value);
  return Number.isNaN(date.getTime()) ? '' : timeFormat.format(date);
}

/** The first letter of a name, for the avatar. */
export function initial(name: string): string {
  return (Array.from(name.trim())[0] ?? '?').toUpperCase();
}

export function displayName(user: { id: string; name?: string } | undefined | null): string {
  return user?.name || user?.id || 'Someone';
}
