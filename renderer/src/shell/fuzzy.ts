// Subsequence matching for the command palette: every query character must appear in order. Matches at
// word starts and consecutive runs score higher, so "dlq" finds "Go to DLQ" before "Download queue".
export function fuzzyScore(query: string, text: string): number | null {
  const q = query.trim().toLowerCase();
  if (!q) return 0;
  const t = text.toLowerCase();
  let score = 0;
  let from = 0;
  let previous = -2;
  for (const char of q) {
    if (char === ' ') continue;
    const index = t.indexOf(char, from);
    if (index === -1) return null;
    const wordStart = index === 0 || /[\s\-_/.:]/.test(t[index - 1] ?? '');
    score += 1 + (wordStart ? 3 : 0) + (index === previous + 1 ? 2 : 0);
    previous = index;
    from = index + 1;
  }
  // Shorter texts win ties: "KV" beats "KV read-only token".
  return score - t.length / 100;
}
