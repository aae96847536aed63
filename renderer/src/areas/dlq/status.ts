/** Badge tone for the HTTP status of a failed delivery (0: no response at all). */
export function statusTone(status: number): 'danger' | 'warning' | 'info' {
  if (status >= 500 || status === 0) return 'danger';
  if (status >= 400) return 'warning';
  return 'info';
}
