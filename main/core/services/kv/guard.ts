// The workbench's safety checks in main, before anything is sent: dangerous commands need the user's
// confirmation, and a read-only profile that must use its standard token (it has no read-only one) refuses
// commands that write. With a read-only token the server refuses writes itself, with its own text.
import { BridgeError } from '../../../../shared/bridge/errors';
import { isWriteCommand } from '../../../../shared/kv/commands';
import { dangersOf } from '../../../../shared/kv/danger';
import type { ResolvedProfile } from '../../profiles/profiles-service';
import type { KvAccess } from './client';

export function guardCommands(
  profile: ResolvedProfile,
  access: KvAccess,
  commands: readonly (readonly string[])[],
  confirmed: boolean,
): void {
  if (profile.settings.readOnly && access === 'standard') {
    const writes = commands.filter((args) => isWriteCommand(args)).map((args) => args[0]!.toUpperCase());
    if (writes.length) {
      throw new BridgeError({
        code: 'READ_ONLY',
        message: `This profile is read-only and has no KV read-only token, so Switchyard refuses ${[
          ...new Set(writes),
        ].join(', ')} itself. Add the read-only token to let the server decide, or turn off "Read-only".`,
      });
    }
  }
  const dangers = dangersOf(commands);
  if (dangers.length && !confirmed) {
    throw new BridgeError({
      code: 'INVALID_INPUT',
      message: `Not run: this needs a confirmation first. ${dangers.join(' ')}`,
    });
  }
}
