// The question before a dangerous command (FLUSHALL, KEYS, CONFIG SET, DEL of many keys…): always asked,
// and on production profiles the user types the profile's name. main refuses these without the answer.
import { dangersOf } from '../../../../shared/kv/danger';
import type { ProfileView } from '../../../../shared/profiles';
import { confirm } from '../../ui/confirm';

/** Resolves to whether to run: true at once when nothing is dangerous. */
export async function askBeforeDanger(
  profile: ProfileView,
  commands: readonly (readonly string[])[],
): Promise<boolean> {
  const dangers = dangersOf(commands);
  if (dangers.length === 0) return true;
  return confirm({
    title: dangers.length === 1 ? 'Run a dangerous command?' : `Run ${dangers.length} dangerous commands?`,
    body: (
      <>
        <ul className="kv-danger-list">
          {dangers.map((danger, index) => (
            <li key={index}>{danger}</li>
          ))}
        </ul>
        on <strong>{profile.name}</strong>.
      </>
    ),
    confirmLabel: 'Run',
    danger: true,
    typeToConfirm: profile.env === 'prod' ? profile.name : undefined,
  });
}
