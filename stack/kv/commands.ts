// A list of commands as the request handler sees it: names for the policy, arguments on demand, and
// RESP encoding of any subset. Pipelines from JSON use a zero-copy implementation (json-args.ts).
import type { RespArg } from './resp';
import { encodeCommands } from './resp';
import { longestArgOf } from './key-size';
import { commandName } from './policy';

export interface CommandList {
  readonly length: number;
  /** Lower-case name of command i. */
  name(i: number): string;
  /** Arguments of command i (materialized only for the few commands the policy looks into). */
  args(i: number): RespArg[];
  /** The RESP bytes of the given commands (all of them when omitted), in that order. */
  encode(indices?: readonly number[]): Buffer;
  /**
   * The byte length of the longest argument of any command, noted while the arguments were read: only when
   * it is over the key size limit (quota.ts MAX_KEY_BYTES) are the commands' keys looked at (key-size.ts).
   */
  readonly longestArg: number;
}

/** Commands that are already argument arrays (path form, `POST /`, transactions). */
export class ArgsList implements CommandList {
  /**
   * `longestArg` when the caller measured it as it made the arguments (the path form); else it is measured on
   * first use (the bridge's own reads never ask).
   */
  constructor(
    private readonly commands: RespArg[][],
    private measured?: number,
  ) {}

  get longestArg(): number {
    return (this.measured ??= longestArgOf(this.commands));
  }

  get length(): number {
    return this.commands.length;
  }

  name(i: number): string {
    return commandName(this.commands[i]!);
  }

  args(i: number): RespArg[] {
    return this.commands[i]!;
  }

  encode(indices?: readonly number[]): Buffer {
    return encodeCommands(indices ? indices.map((i) => this.commands[i]!) : this.commands);
  }
}
