/**
 * Starts at most `limit` request handlers in each turn of the event loop (its poll and check phases together);
 * the others wait, in arrival order, for the next turns.
 *
 * Why: Node parses every request that arrived together in one poll phase, and without this each handler ran
 * right there up to its first wait (routing, auth, validation, planning the message). A burst of 1,000
 * publishes ran 1,000 handlers back to back and held the loop (timers, the other ports' requests) for 200–400
 * ms (issue 18 item 4). The waiting ones start from a check-phase callback (setImmediate), so timers and I/O
 * run between two batches. The store's writer settles its commits in bounded turns for the same reason
 * (GROUPS_PER_TURN).
 *
 * Under ordinary load nothing waits: fewer than `limit` requests arrive in one turn, and each starts at once.
 */
export function perTurn(limit: number): (start: () => void) => void {
  const waiting: (() => void)[] = [];
  /** Handlers started since the last check phase: this turn's poll phase counts against the turn's budget. */
  let startedThisTurn = 0;
  let turnEndScheduled = false;

  const endTurn = (): void => {
    turnEndScheduled = false;
    const batch = waiting.splice(0, Math.max(0, limit - startedThisTurn));
    for (const start of batch) start();
    startedThisTurn = 0;
    if (waiting.length > 0) scheduleTurnEnd();
  };
  const scheduleTurnEnd = (): void => {
    if (turnEndScheduled) return;
    turnEndScheduled = true;
    setImmediate(endTurn);
  };

  return (start) => {
    scheduleTurnEnd();
    if (waiting.length === 0 && startedThisTurn < limit) {
      startedThisTurn++;
      start();
      return;
    }
    waiting.push(start);
  };
}
