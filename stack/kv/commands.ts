// A list of commands as the request handler sees it: names for the policy, arguments on demand, and
// RESP encoding of any subset. Pipelines from JSON use a zero-copy implementation (json-args.ts).
import type { RespArg } from './resp';
import { encodeCommands } from './resp';
import { commandName } from './policy';

export interface CommandList {
  readonly length: number;
  /** Lower-case name of command i. */
  name(i: number): string;
  /** Arguments of command i (materialized only for the few commands the policy looks into). */
  args(i: number): RespArg[];
  /** The RESP bytes of the given commands (all of them when omitted), in that order. */
  encode(indices?: readonly number[]): Buffer;
}

/** Commands that are already argument arrays (path form, `POST /`, transactions). */
export class ArgsList implements CommandList {
  constructor(private readonly commands: RespArg[][]) {}

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
