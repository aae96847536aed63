// A schedule's cron in words, with its zone: "Every day at 03:17, Europe/Berlin". The words come from
// cronstrue (24-hour times); the zone from the CRON_TZ= prefix (UTC without one).
import cronstrue from 'cronstrue';
import { fieldsOf, zoneOf } from './schedule-form';

/** The expression alone in words; undefined when it is not a valid cron. */
export function cronInWords(fields: string): string | undefined {
  try {
    const words = cronstrue.toString(fields, { use24HourTimeFormat: true, verbose: false });
    // cronstrue says "At 03:17" for a daily time; a list of schedules reads better with the day said.
    return /^At \d\d:\d\d$/.test(words) ? `Every day at ${words.slice(3)}` : words;
  } catch {
    return undefined;
  }
}

/** A schedule's cron (maybe with a zone prefix) in words, ending with its zone. */
export function describeCron(cron: string): string {
  const fields = fieldsOf(cron);
  return `${cronInWords(fields) ?? fields}, ${zoneOf(cron)}`;
}
