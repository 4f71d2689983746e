const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

function pad(value: number, width = 2): string {
  return String(value).padStart(width, '0');
}

/** 2024-03-07 */
export function formatIsoDate(date: Date): string {
  return `${date.getUTCFullYear()}-${pad(date.getUTCMonth() + 1)}-${pad(date.getUTCDate())}`;
}

/** 7 Mar 2024, 14:05 */
export function formatDisplayDate(date: Date): string {
  const day = date.getUTCDate();
  const month = MONTHS[date.getUTCMonth()];
  return `${day} ${month} ${date.getUTCFullYear()}, ${pad(date.getUTCHours())}:${pad(date.getUTCMinutes())}`;
}

export function fromUnixSeconds(seconds: number): Date {
  return new Date(seconds * 1000);
}

export function toUnixSeconds(date: Date): number {
  return Math.floor(date.getTime() / 1000);
}

/** "3 minutes ago", "in 2 hours" */
export function formatRelative(date: Date, now: Date = new Date()): string {
  const diffSeconds = Math.round((date.getTime() - now.getTime()) / 1000);
  const abs = Math.abs(diffSeconds);
  const units: Array<[string, number]> = [
    ['day', 86_400],
    ['hour', 3_600],
    ['minute', 60],
  ];
  for (const [unit, size] of units) {
    if (abs >= size) {
      const count = Math.floor(abs / size);
      const label = `${count} ${unit}${count === 1 ? '' : 's'}`;
      return diffSeconds < 0 ? `${label} ago` : `in ${label}`;
    }
  }
  return 'just now';
}
