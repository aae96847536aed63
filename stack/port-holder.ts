// Why `npm run stack` cannot listen: which process holds the port (Linux: /proc/net/tcp* gives the
// listening socket's inode, /proc/<pid>/fd the process holding it), whether that is the console's own
// local stack (then its URLs), and what to do instead (--port 0). Elsewhere, or when /proc tells nothing
// (another user's process), the hint still names the port and the way out.
import { readdirSync, readFileSync, readlinkSync } from 'node:fs';

export interface PortHolder {
  pid: number;
  /** Its command line, arguments separated by spaces. */
  command: string;
}

const LISTEN = '0A';

/** Inodes of the sockets listening on `port` (any address, IPv4 or IPv6). */
function listeningInodes(port: number, proc: string): Set<string> {
  const inodes = new Set<string>();
  for (const table of ['net/tcp', 'net/tcp6']) {
    let text: string;
    try {
      text = readFileSync(`${proc}/${table}`, 'utf8');
    } catch {
      continue;
    }
    for (const line of text.split('\n').slice(1)) {
      const fields = line.trim().split(/\s+/);
      // sl local_address rem_address st tx:rx tr:when retrnsmt uid timeout inode
      const local = fields[1];
      if (!local || fields[3] !== LISTEN) continue;
      if (parseInt(local.slice(local.lastIndexOf(':') + 1), 16) === port && fields[9]) inodes.add(fields[9]);
    }
  }
  return inodes;
}

/** The process listening on `port`, if this system says (Linux, a process of this user); else undefined. */
export function findPortHolder(port: number, proc = '/proc'): PortHolder | undefined {
  const inodes = listeningInodes(port, proc);
  if (inodes.size === 0) return undefined;
  let pids: string[];
  try {
    pids = readdirSync(proc).filter((name) => /^\d+$/.test(name));
  } catch {
    return undefined;
  }
  for (const pid of pids) {
    let fds: string[];
    try {
      fds = readdirSync(`${proc}/${pid}/fd`);
    } catch {
      continue; // another user's process, or gone
    }
    for (const fd of fds) {
      let target: string;
      try {
        target = readlinkSync(`${proc}/${pid}/fd/${fd}`);
      } catch {
        continue;
      }
      const inode = /^socket:\[(\d+)\]$/.exec(target)?.[1];
      if (inode && inodes.has(inode)) {
        let command = '';
        try {
          command = readFileSync(`${proc}/${pid}/cmdline`, 'utf8').split('\0').filter(Boolean).join(' ');
        } catch {
          // gone meanwhile: the pid is still worth naming
        }
        return { pid: Number(pid), command };
      }
    }
  }
  return undefined;
}

/** The value of `--flag V` in a command line, if given. */
function flagValue(command: string, flag: string): string | undefined {
  const parts = command.split(' ');
  const at = parts.indexOf(flag);
  return at >= 0 ? parts[at + 1] : undefined;
}

/**
 * What to print when the stack's `port` is taken: who holds it and what to do. A Switchyard stack (the
 * console's own, or another `npm run stack`) is named with its URLs, so the user can simply use it.
 */
export function addressInUseHint(port: number, holder: PortHolder | undefined): string {
  const rerun = 'run `npm run stack -- --port 0 --kv-port 0` to pick free ports';
  if (!holder) {
    return `port ${port} is already in use by another process; stop it, or ${rerun}.`;
  }
  if (/stack[/\\]cli\.c?js\b/.test(holder.command)) {
    // Its URLs from its own flags (a port it picked itself, --port 0, is not known here).
    const url = (flag: string, byDefault: string) => {
      const value = flagValue(holder.command, flag) ?? byDefault;
      return value === '0' ? 'a port it picked' : `http://127.0.0.1:${value}`;
    };
    const owner = holder.command.includes('--exit-with-stdin')
      ? "the console's own local stack"
      : 'another Switchyard local stack';
    return (
      `port ${port} is already in use by ${owner} (pid ${holder.pid}): ` +
      `use it — messages and workflows at ${url('--port', '8080')}, KV at ${url('--kv-port', '8079')} ` +
      `(the console's Local stack page or its .env file has the tokens) — or ${rerun}.`
    );
  }
  return `port ${port} is already in use by pid ${holder.pid} (${holder.command || 'command unknown'}); stop it, or ${rerun}.`;
}
